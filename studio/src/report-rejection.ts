/**
 * A `.catch` handler for a promise nobody awaits (`void work().catch(reportRejection('…'))`): the failure goes to the
 * browser console with what failed, rather than being dropped. Work whose failure the user must see shows it itself
 * (an error box, a turn's notice); this is for what is left over.
 */
export function reportRejection(what: string): (err: unknown) => void {
  return (err) => console.error(`Corvid Studio: ${what} failed`, err);
}
