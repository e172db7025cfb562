import { useEffect, useState } from 'react';

/**
 * Copies `text` to the clipboard and says so for a moment: of that text only, so an edit made
 * meanwhile (the playground's order) does not read as copied.
 */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [state, setState] = useState<{ kind: 'idle' } | { kind: 'copied' | 'failed'; text: string }>({ kind: 'idle' });

  useEffect(() => {
    if (state.kind === 'idle') return;
    const timer = setTimeout(() => setState({ kind: 'idle' }), 2000);
    return () => clearTimeout(timer);
  }, [state]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setState({ kind: 'copied', text });
    } catch (error) {
      // Clipboard access denied (insecure origin, permissions): the text is still selectable.
      console.warn('Cannot copy to the clipboard', error);
      setState({ kind: 'failed', text });
    }
  }

  const shown = state.kind !== 'idle' && state.text === text ? state.kind : 'idle';
  return (
    <button type="button" className="btn btn-outline-secondary" onClick={() => void copy()} aria-live="polite">
      {shown === 'copied' ? 'Copied' : shown === 'failed' ? 'Select and copy' : label}
    </button>
  );
}
