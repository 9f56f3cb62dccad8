/** A link of the main navigation; `label` is a key of the common namespace. */
export interface NavItem {
  to: string;
  label: string;
}
