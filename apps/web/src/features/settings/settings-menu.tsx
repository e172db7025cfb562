export const SETTINGS_SECTIONS = [
  { id: 'general', label: 'General' },
  { id: 'two-factor', label: 'Two-factor authentication' },
  { id: 'api-tokens', label: 'API tokens' },
] as const;

/** SPEC §2 Settings menu; admins also see Followers (count 3), greyed out: not available yet. */
export function SettingsMenu({ isAdmin }: { isAdmin: boolean }) {
  return (
    <nav className="list-group mb-4" aria-label="Settings">
      {SETTINGS_SECTIONS.map((section) => (
        <a key={section.id} href={`#${section.id}`} className="list-group-item list-group-item-action">
          {section.label}
        </a>
      ))}
      {isAdmin && (
        <span
          className="list-group-item disabled d-flex justify-content-between align-items-center"
          aria-disabled="true"
        >
          Followers
          <span className="badge text-bg-secondary rounded-pill">3</span>
        </span>
      )}
    </nav>
  );
}
