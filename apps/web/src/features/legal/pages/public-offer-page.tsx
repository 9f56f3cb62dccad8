import { LegalPage } from '../components/legal-page';

export function Component() {
  return <LegalPage kind="public-offer" />;
}
