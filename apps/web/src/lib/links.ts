// Footer destinations (SPEC §2 Navigation): the app's own FAQ, terms and privacy pages; Contact
// Support is the operator's SUPPORT_EMAIL (features/site).
export const FAQ_PATH = '/faq';
export const PRIVACY_PATH = '/privacy';
export const TERMS_PATH = '/terms-of-service';
export const PRODUCT_NAME = 'Signal Router';
