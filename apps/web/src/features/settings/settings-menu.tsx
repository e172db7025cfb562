export interface SettingsMenuItem {
  id: string;
  label: string;
}

/** SPEC §2 Settings menu; admins also see Followers (count 3), greyed out: not available yet. */
export function SettingsMenu({ sections, isAdmin }: { sections: readonly SettingsMenuItem[]; isAdmin: boolean }) {
  return (
    <nav className="list-group mb-4" aria-label="Settings">
      {sections.map((section) => (
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
