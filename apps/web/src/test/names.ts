/**
 * WCAG 2.5.3 (label in name): the text-only controls under `root` whose aria-label replaces their
 * visible words without containing them, as "label → visible text"; a person using speech input
 * says what they see ("click Send test"), which must be part of the name. Icons and symbols (☰)
 * are no words; a composite control (a provider tile) is named for its title, not all it shows.
 */
export function labelsMissingText(root: HTMLElement): string[] {
  const words = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim().toLowerCase();
  const textOnly = (control: HTMLElement) =>
    [...control.children].every((child) => child.getAttribute('aria-hidden') === 'true') &&
    /\p{L}/u.test(control.textContent ?? '');
  return [...root.querySelectorAll<HTMLElement>('a[aria-label], button[aria-label]')]
    .filter(textOnly)
    .filter((control) => !words(control.getAttribute('aria-label')).includes(words(control.textContent)))
    .map((control) => `${control.getAttribute('aria-label')} → ${words(control.textContent)}`);
}

/** The labels under `root` that name no control (a `for` pointing at a paragraph, or nowhere). */
export function labelsWithoutControl(root: HTMLElement): string[] {
  return [...root.querySelectorAll('label')]
    .filter((label) => label.control === null)
    .map((label) => label.textContent ?? '');
}
