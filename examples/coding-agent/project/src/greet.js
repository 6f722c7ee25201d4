/** Greets someone by name; an empty name greets the world. */
export function greet(name) {
  return `Hello, ${name || 'world'}!`;
}
