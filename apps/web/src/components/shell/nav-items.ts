export interface NavItem {
  to: string;
  label: string;
  /** Match the path exactly (the dashboard would otherwise match every /me screen). */
  end?: boolean;
  adminOnly?: boolean;
  /** The welcome tour's anchor (features/tour: `[data-tour="…"]`). */
  tour?: string;
}

/** SPEC §2 Navigation. */
export const NAV_ITEMS: readonly NavItem[] = [
  { to: '/me', label: 'Dashboard', end: true, tour: 'nav-dashboard' },
  { to: '/me/connector', label: 'Brokers & Webhooks', tour: 'nav-connector' },
  { to: '/me/account', label: 'Account & Billing', tour: 'nav-account' },
  { to: '/me/documentation', label: 'Documentation', tour: 'nav-documentation' },
  { to: '/me/settings', label: 'Settings' },
  { to: '/me/admin', label: 'Admin', adminOnly: true },
];

export const navItemsFor = (isAdmin: boolean): NavItem[] => NAV_ITEMS.filter((item) => !item.adminOnly || isAdmin);
