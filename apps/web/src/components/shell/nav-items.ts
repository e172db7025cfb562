export interface NavItem {
  to: string;
  label: string;
  /** Match the path exactly (the dashboard would otherwise match every /me screen). */
  end?: boolean;
  adminOnly?: boolean;
}

/** SPEC §2 Navigation. */
export const NAV_ITEMS: readonly NavItem[] = [
  { to: '/me', label: 'Dashboard', end: true },
  { to: '/me/connector', label: 'Brokers & Webhooks' },
  { to: '/me/account', label: 'Account & Billing' },
  { to: '/me/documentation', label: 'Documentation' },
  { to: '/me/settings', label: 'Settings' },
  { to: '/me/admin', label: 'Admin', adminOnly: true },
];

export const navItemsFor = (isAdmin: boolean): NavItem[] => NAV_ITEMS.filter((item) => !item.adminOnly || isAdmin);
