/** A small trash can for delete buttons (the button carries the accessible name). */
export function TrashIcon() {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.4"
      aria-hidden="true"
    >
      <path
        d="M2.5 4h11M6 4V2.5h4V4M4 4l.7 9.5h6.6L12 4M6.7 6.5v5M9.3 6.5v5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
