import type { LegalDocument } from './types';

export const document: LegalDocument = {
  title: 'Privacy Policy',
  effectiveDate: 'Effective 1 November 2026',
  intro:
    'This Privacy Policy explains how the operator of the TradeHost service (“we”, “us”, “our” or the “Provider”) collects, uses, stores, shares and protects the personal data of users of the TradeHost client area and related services, and what rights users have in relation to their data. This Policy applies together with the Public Offer Agreement (the “Offer”). By registering and ticking the consent box, you confirm that you have read and understood this Policy.',
  sections: [
    {
      heading: '1. General Provisions',
      paragraphs: [
        '1.1. The controller of your personal data is the Provider, the operator of the TradeHost service that concludes the Offer with you.',
        '1.2. This Policy applies to personal data processed when you visit the Client Area, register an Account, rent Servers, use the Monitoring Service and the Partner Programme, contact Support, and receive e-mails from us.',
        '1.3. Capitalised terms that are not defined in this Policy have the meanings given to them in the Offer.',
        '1.4. We process personal data in accordance with the principles of lawfulness, fairness and transparency, purpose limitation, data minimisation, accuracy, storage limitation, integrity and confidentiality, and accountability.',
      ],
    },
    {
      heading: '2. Personal Data We Collect',
      paragraphs: [
        '2.1. Account data: your name, e-mail address, preferred interface language and theme, avatar (if you upload one, up to 1 MB), registration date, Account settings, and a record of your consent to the Offer and this Policy with its date and time.',
        '2.2. Authentication data: we store only a cryptographic hash of your password, computed with the argon2id algorithm. We never store your password itself in readable form, and our staff cannot see or recover it. We also process session identifiers and refresh tokens needed to keep you signed in.',
        '2.3. Technical data and logs: IP addresses, browser and device information (user agent), the date and time of sign-ins and of significant actions in the Client Area, such as orders, Server operations, Balance operations and changes of password or e-mail, as well as error and security logs.',
        '2.4. Payment data: amounts, currency, date, payment method, status and identifiers of transactions, the history of your Balance, transfers to and from other users (including the recipient’s e-mail address), refunds and withdrawals. Bank card details are entered on the side of the payment provider; we do not receive or store full card numbers or security codes, and may receive only limited information such as the card type, the last digits of the card number and the payment status. For cryptocurrency payments we process wallet addresses, the network used, transaction identifiers (hashes) and amounts; please note that transactions recorded on public blockchains are publicly visible by their nature. For withdrawals we process the payout details you provide.',
        '2.5. Server data: the configuration, status and Paid-Until Date of your Servers, their IP addresses and access credentials (Server passwords are stored encrypted). We do not access the contents of your Servers except where this is necessary to provide support at your request, to eliminate a failure or a security threat, or to comply with the law.',
        '2.6. Monitoring data: trading account numbers, the names of brokers and trading servers, the data needed to connect an account, trading statistics (such as balance, equity, trades, profit and drawdown), alert settings, the link between your Account and your Telegram chat (the chat identifier and, where Telegram provides it, your Telegram username), and the settings of public account pages.',
        '2.7. Support data: the content of your Tickets, attached files (JPEG, GIF, PNG or PDF, up to 5 MB each) and the history of correspondence.',
        '2.8. Partner Programme data: your referral code, the Partner who referred you, the Referrals you have attracted at each of the three levels, accrued rewards, withdrawals and Promocodes used. Partners see limited information about their Referrals as displayed in the Partner section.',
        '2.9. We do not intentionally collect special categories of personal data, such as data concerning health, political opinions, religious beliefs or biometric data. Please do not include such data in Tickets or attachments.',
        '2.10. We obtain personal data directly from you, automatically when you use the Client Area, from payment providers, from public blockchains, from Telegram when you link the bot, and from trading servers when you connect a trading account to the Monitoring Service.',
      ],
    },
    {
      heading: '3. Purposes and Legal Bases of Processing',
      paragraphs: [
        '3.1. Providing the Services and performing the Offer, including registration and authentication, creation and management of Servers, maintenance of the Balance, processing of payments, transfers, renewals and auto-renewals, operation of the Monitoring Service and the Partner Programme, and handling of Tickets. Legal basis: performance of the contract with you.',
        '3.2. Sending service notifications, including reminders 3 days and 1 day before the Paid-Until Date, notices of blocking and deletion of Servers, security notices, drawdown alerts and notices of changes to our documents. Legal basis: performance of the contract and our legitimate interest in informing you about your Services.',
        '3.3. Ensuring security and preventing fraud and abuse, including analysis of logs, detection of unauthorised access, investigation of chargebacks, self-referral and breaches of the acceptable use rules. Legal basis: our legitimate interests and those of other users in the security and integrity of the Services.',
        '3.4. Complying with accounting, tax and other legal obligations and responding to lawful requests of competent authorities. Legal basis: compliance with a legal obligation.',
        '3.5. Improving the Services on the basis of aggregated and, where possible, anonymised statistics of use. Legal basis: our legitimate interests.',
        '3.6. Sending information about new services and promotions. Legal basis: your consent, where required by law. You can unsubscribe at any time; this does not affect service notifications.',
        '3.7. We do not make decisions that produce legal effects concerning you or similarly significantly affect you solely on the basis of automated processing. Automated anti-fraud checks may flag an operation for manual review by our staff.',
        '3.8. We do not sell personal data and do not use it for purposes incompatible with those stated in this Policy.',
      ],
    },
    {
      heading: '4. Cookies and Local Storage',
      paragraphs: [
        '4.1. The Client Area uses a minimal set of browser storage technologies that are necessary for it to function.',
        '4.2. Session refresh cookie. After you sign in, we set a cookie containing a refresh token that is used to renew your session. The cookie is marked HttpOnly, which means that it cannot be read by scripts running on the page. It is deleted when you sign out or expires automatically.',
        '4.3. Local storage. Your colour theme and interface language preferences are saved in your browser’s local storage so that the Client Area is displayed the way you have chosen. This information remains in your browser and is not used to identify you.',
        '4.4. Referral code. When you follow a Partner’s referral link, the referral code is saved in your browser so that it can be applied when you register.',
        '4.5. We do not use cookies for advertising or cross-site tracking. If we introduce analytics or other non-essential cookies in the future, we will update this Policy and, where required by law, ask for your consent.',
        '4.6. You can delete cookies and local storage data in your browser settings at any time. Deleting the refresh cookie will sign you out, and blocking it will make it impossible to sign in to the Client Area.',
      ],
    },
    {
      heading: '5. Disclosure of Data and Processors',
      paragraphs: [
        '5.1. We share personal data only to the extent necessary for the purposes described in this Policy, with the following categories of recipients.',
        '5.2. Payment providers that process card, e-wallet and other payments, refunds and chargebacks. They may act as independent controllers under their own privacy policies.',
        '5.3. E-mail delivery services that send service notifications and other messages on our behalf.',
        '5.4. Hosting and data centre providers that supply the infrastructure on which the Client Area and the Servers run.',
        '5.5. Telegram, through which notifications are delivered when you link the Telegram bot to your Account.',
        '5.6. Other users, to the extent you choose: the statistics on a public account page are available to anyone who has the link; the recipient of a Balance transfer may see your name or e-mail address as the sender; your Partner sees limited information about you as a Referral.',
        '5.7. Competent authorities, courts and other persons, where disclosure is required by law or necessary to establish, exercise or defend legal claims; professional advisers bound by confidentiality; and a successor in the event of a reorganisation or transfer of the business, subject to this Policy.',
        '5.8. Our processors act on our instructions under agreements that oblige them to keep personal data confidential, to protect it and to use it only for the purposes of providing services to us.',
      ],
    },
    {
      heading: '6. International Transfers',
      paragraphs: [
        '6.1. Our infrastructure and processors may be located in different countries, including countries outside your country of residence, whose data protection laws may differ from those of your country. Servers are located in the data centres indicated when the Server is ordered.',
        '6.2. Where the law of your country restricts international transfers of personal data, we transfer data only where there is a lawful ground for doing so, such as a decision that the recipient country ensures an adequate level of protection, appropriate safeguards (for example, standard contractual clauses), or necessity for the performance of the contract with you.',
      ],
    },
    {
      heading: '7. Retention Periods',
      paragraphs: [
        '7.1. We keep personal data no longer than is necessary for the purposes for which it was collected, or than is required by law.',
        '7.2. Account data is kept for as long as your Account exists and, after its deletion, for the period necessary to comply with legal obligations and to settle possible disputes.',
        '7.3. Server data is deleted when the Server receives the status “Revoked” or is otherwise deleted. Data on a Blocked Server is kept only for the grace period described in the Offer.',
        '7.4. Payment records, including records of Balance operations, refunds, withdrawals and Partner rewards, are kept for the period required by accounting and tax law.',
        '7.5. Technical logs are kept for a limited period, as a rule not exceeding 12 months, unless they are needed for a longer time to investigate a specific incident or to defend legal claims.',
        '7.6. Monitoring data is kept while the trading account remains connected. When you disconnect the account or delete your Account, the public page ceases to be available and the monitoring data is deleted or anonymised.',
        '7.7. Tickets and attachments are kept for as long as your Account exists and for the period necessary to settle possible disputes.',
        '7.8. Referral relations are kept for as long as the Partner Programme relationship exists and rewards may be due, and thereafter for the period required by accounting law.',
        '7.9. When the retention period expires, personal data is deleted or anonymised so that it can no longer be linked to you.',
      ],
    },
    {
      heading: '8. Data Security',
      paragraphs: [
        '8.1. We apply organisational and technical measures to protect personal data against unauthorised or unlawful processing, accidental loss, destruction or damage.',
        '8.2. Account passwords are stored only as hashes computed with argon2id, a memory-hard algorithm designed to resist brute-force attacks, with a unique salt for each password.',
        '8.3. Server passwords are stored in encrypted form and are shown only to you in the Client Area.',
        '8.4. All connections between your browser and the Client Area are protected with TLS encryption.',
        '8.5. The session refresh cookie is HttpOnly, which reduces the risk of it being stolen by malicious scripts.',
        '8.6. Access of our staff to personal data is limited to those who need it to perform their duties, is granted on a need-to-know basis and is subject to confidentiality obligations.',
        '8.7. Security is a shared responsibility. Please use a strong and unique password, do not share your credentials, keep your e-mail account secure and keep the software on your Servers up to date.',
        '8.8. No method of transmission or storage is completely secure. If a personal data breach occurs that is likely to result in a risk to your rights, we will notify you and the competent authorities where required by law.',
      ],
    },
    {
      heading: '9. Your Rights',
      paragraphs: [
        '9.1. Subject to applicable law, you have the right to: access your personal data and receive a copy of it; have inaccurate or incomplete data corrected; have your data deleted; restrict the processing of your data; object to processing based on our legitimate interests and to direct marketing; receive the data you have provided to us in a structured, commonly used and machine-readable format and have it transmitted to another controller (portability); and withdraw your consent at any time where processing is based on consent, without affecting the lawfulness of processing before the withdrawal.',
        '9.2. You can view and correct much of your data yourself in the settings of the Client Area.',
        '9.3. To exercise your rights, submit a Ticket in the Support section. We may ask you to confirm your identity before fulfilling the request. We respond within 30 days of receipt; where the law allows, this period may be extended if the request is complex, in which case we will inform you. Requests are handled free of charge unless they are manifestly unfounded or excessive.',
        '9.4. The right to deletion is not absolute: we may retain data that we are required to keep by law or that is necessary to establish, exercise or defend legal claims. Deletion of your Account ends the provision of the Services and results in the deletion of your Servers and their data.',
        '9.5. You also have the right to lodge a complaint with the data protection supervisory authority in your country of residence. We would appreciate the opportunity to address your concerns first, so please contact us through Support.',
      ],
    },
    {
      heading: '10. Children',
      paragraphs: [
        '10.1. The Services are not intended for persons under 18 years of age, and such persons may not register an Account.',
        '10.2. We do not knowingly collect personal data of persons under 18. If we learn that such data has been provided to us, we will delete the Account and the related data. If you believe that a minor has provided us with personal data, please let us know through Support.',
      ],
    },
    {
      heading: '11. Third-Party Services',
      paragraphs: [
        '11.1. The Services interact with third-party services, including payment providers, blockchain networks, Telegram and brokers’ trading servers. The processing of personal data by these third parties is governed by their own privacy policies, and we recommend that you read them.',
      ],
    },
    {
      heading: '12. Changes to this Policy',
      paragraphs: [
        '12.1. We may update this Policy from time to time. The current version is always available in the Client Area with its effective date.',
        '12.2. We notify you of material changes in advance by e-mail or in the Client Area. Continued use of the Services after the changes take effect means that you have read the updated Policy.',
      ],
    },
    {
      heading: '13. Contacts',
      paragraphs: [
        '13.1. For any questions about this Policy or the processing of your personal data, and to exercise your rights, please submit a Ticket in the Support section of the Client Area.',
        '13.2. If you cannot access your Account, please first restore access using the password recovery function and then submit a Ticket. Before acting on a request concerning personal data, we may take additional steps to verify that it comes from the Account holder.',
      ],
    },
  ],
};
