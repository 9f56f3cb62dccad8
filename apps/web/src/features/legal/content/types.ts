export interface LegalSection {
  heading: string;
  paragraphs: string[];
}
export interface LegalDocument {
  title: string;
  effectiveDate: string; // human text, e.g. "Effective 1 November 2026" / "Действует с 1 ноября 2026 г."
  intro: string;
  sections: LegalSection[];
}
