/** The length limits of the account fields, shared by the schemas and the forms. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const NAME_MAX = 100;
export const EMAIL_MAX = 254;
export const CODE_LENGTH = 6;
export const PARTNER_CODE_MAX = 32;
