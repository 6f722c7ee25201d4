/**
 * The markdown renderer (marked + highlight.js), loaded in the background after the first frame so the prompt
 * appears before these modules are read. Until it has loaded, markdown shows as plain text.
 */
type Markdown = (text: string, width: number) => string;

let markdown: Markdown | undefined;
let loading: Promise<void> | undefined;

/** Loads marked and highlight.js once. Never rejects: without them the transcript stays plain text. */
export function loadRenderers(): Promise<void> {
  loading ??= (async () => {
    try {
      const [md, hl] = await Promise.all([import('./markdown-ansi.js'), import('./highlight-code.js')]);
      await hl.loadHighlighter();
      markdown = (text, width) => md.markdownToAnsi(text, { width });
    } catch {
      // marked is an optional peer: plain text it is.
    }
  })();
  return loading;
}

/** Renders markdown with the loaded renderer, or returns it as is. */
export function renderMarkdown(text: string, width: number): string {
  return markdown ? markdown(text, width) : text;
}
