import type { LegalDocument } from './types';

export const document: LegalDocument = {
  title: 'Public Offer Agreement (Terms of Service)',
  effectiveDate: 'Effective 1 November 2026',
  intro:
    'This document is a public offer by the operator of the TradeHost service (the “Provider”) to any person with full legal capacity (the “Customer”) to conclude an agreement for the rental of virtual private servers and the use of the monitoring, partner and related services on the terms below. Please read it carefully before registering. If you do not agree with any of its terms, do not register and do not use the Services.',
  sections: [
    {
      heading: '1. General Provisions and Acceptance',
      paragraphs: [
        '1.1. This Public Offer Agreement (the “Offer” or the “Agreement”) sets out the terms on which the Provider makes the Services available to the Customer through the Client Area. The Provider and the Customer are each a “Party” and together the “Parties”.',
        '1.2. The Customer accepts the Offer by completing registration in the Client Area and ticking the box confirming consent to this Offer and the Privacy Policy. Acceptance is full and unconditional; the Offer cannot be accepted in part or with reservations. From the moment of acceptance the Agreement is deemed concluded and has the same force as a written agreement signed by both Parties.',
        '1.3. By accepting the Offer, the Customer confirms that they are at least 18 years old and have full legal capacity, that the use of the Services is not prohibited to them by the law applicable to them and, if acting for a legal entity, that they are authorised to bind it.',
        '1.4. The Privacy Policy published in the Client Area forms an integral part of this Agreement.',
        '1.5. The Offer is published in English and Russian; both versions have equal force. In case of discrepancy, the interpretation that best reflects the purpose of the Offer prevails.',
      ],
    },
    {
      heading: '2. Definitions',
      paragraphs: [
        '2.1. “Client Area” means the TradeHost web interface through which the Customer orders and manages the Services, tops up the Balance and contacts Support.',
        '2.2. “Account” means the Customer’s account in the Client Area, identified by the e-mail address given at registration.',
        '2.3. “Balance” means the record of the Customer’s funds in the Account, kept in US dollars and used to pay for the Services.',
        '2.4. “Server” or “VPS” means a virtual private server running Windows, provided to the Customer for temporary use in the configuration (plan) chosen in the Client Area.',
        '2.5. “Rental Period” means the period of 1, 3, 6 or 12 months for which a Server is paid. “Paid-Until Date” means the date and time, shown in the Client Area, at which the paid Rental Period ends.',
        '2.6. “Test Server” means a Server provided free of charge for a limited period so that the Customer can evaluate the Services.',
        '2.7. “Monitoring Service” means the online service for tracking trading accounts, including statistics, drawdown alerts, notifications through the Telegram bot and a public account page.',
        '2.8. “Partner Programme” means the three-level referral programme described in Section 13. “Partner” means a Customer taking part in it. “Referral” means a user who registered through a Partner’s referral link or code, directly or through other Referrals, within three levels.',
        '2.9. “Promocode” means a code issued by the Provider that gives a discount, bonus or other benefit on the conditions stated for it.',
        '2.10. “Ticket” means a written request submitted through the Support section of the Client Area.',
        '2.11. “Services” means, collectively, the rental of Servers, the Monitoring Service, the Partner Programme, Support and other services offered in the Client Area.',
      ],
    },
    {
      heading: '3. Subject of the Agreement',
      paragraphs: [
        '3.1. The Provider undertakes to provide the Services selected by the Customer in the Client Area, and the Customer undertakes to pay for them and use them in accordance with this Offer.',
        '3.2. The current Services, plans, prices and Rental Periods are published in the Client Area and form part of this Offer. Prices are stated in US dollars.',
        '3.3. The Services are intended primarily for running MetaTrader 4 and MetaTrader 5 terminals and related software. The Provider supplies computing infrastructure and software tools only and provides no brokerage, investment, asset management or other financial services.',
        '3.4. The Provider may develop, modify or discontinue individual functions of the Client Area and shall notify Customers of significant changes affecting paid Services.',
      ],
    },
    {
      heading: '4. Account and Registration',
      paragraphs: [
        '4.1. To register, the Customer provides a name, a valid e-mail address and a password. The Customer shall provide accurate information and keep it up to date.',
        '4.2. The Customer shall keep the Account password, Server passwords and other credentials confidential. All actions performed with the Customer’s credentials are deemed to be performed by the Customer. The Customer shall promptly inform Support of any unauthorised access or suspected compromise of credentials.',
        '4.3. One person may hold one Account unless the Provider agrees otherwise. Creating multiple Accounts to obtain additional Test Servers, Promocode benefits or Partner rewards is prohibited.',
        '4.4. The Customer may upload an avatar of up to 1 MB. The Provider may remove an avatar that infringes third-party rights, is offensive or otherwise violates this Offer.',
        '4.5. The Client Area is available in English and Russian; the language and colour theme can be chosen in the settings.',
        '4.6. The Provider may request information confirming the Customer’s identity or the lawful origin of funds where necessary to prevent fraud, process a refund or withdrawal, or comply with the law, and may suspend the relevant operations until it is provided.',
      ],
    },
    {
      heading: '5. Balance and Payments',
      paragraphs: [
        '5.1. The Services are paid for from the Balance, which is kept in US dollars. The Customer tops up the Balance in the Client Area using the methods available at the time, which may include bank cards, e-wallets and cryptocurrencies.',
        '5.2. Card and e-wallet payments are processed by third-party payment providers; the Provider does not receive or store full card numbers. Fees, currency conversion costs and limits of the payment provider or the Customer’s bank are borne by the Customer unless the Client Area states otherwise.',
        '5.3. To pay in cryptocurrency, the Customer sends the amount to the address shown in the Client Area, using the network and asset specified there, and then submits the transaction identifier (hash). The Balance is credited after the Provider has verified the transaction and confirmed receipt of the funds, at the rate and under the rules shown on the payment page. Funds sent to a wrong address, network or asset, or without the transaction identifier being submitted, may be impossible to credit or recover, and the Provider is not liable for such losses.',
        '5.4. A payment is deemed made when the Balance is credited.',
        '5.5. Funds on the Balance are an advance payment for the Services. They are not a bank deposit or electronic money, bear no interest and may be used only for the operations provided for by this Offer.',
        '5.6. The Customer may transfer funds from the Balance to another registered user by entering that user’s e-mail address. Transfers are immediate and irrevocable; the Provider is not liable for transfers to a wrong recipient made by the Customer’s error. The Provider may limit transfers and suspend them if fraud or abuse is suspected.',
        '5.7. Promocodes, bonuses and promotional credits have no cash value and cannot be withdrawn, transferred or refunded. The Provider may cancel any benefit obtained in breach of the promotion conditions.',
        '5.8. Refunds. Amounts paid for a Rental Period that has started are not refundable, unless the Service could not be provided through the Provider’s fault, in which case the unused part is credited back to the Balance. The Customer may request by Ticket a refund of the unused top-up amount on the Balance. Refunds are made, as a rule, to the original payment method, less non-refundable fees of payment providers or networks. Bonuses, Promocode amounts and funds received from other users are not refunded; Partner rewards are withdrawn under Section 13. The Provider may refuse a refund where the funds were obtained or used in breach of this Offer.',
        '5.9. Chargebacks. The Customer shall contact Support first to resolve any payment issue. If the Customer initiates a chargeback or payment dispute, the Provider may suspend the Account and all Servers until the dispute is resolved and debit the disputed amount and related fees from the Balance; if the chargeback is unjustified, the Provider may also claim its losses and terminate the Agreement.',
        '5.10. The Customer is responsible for any taxes that apply to them in connection with the Services.',
      ],
    },
    {
      heading: '6. Server Rental',
      paragraphs: [
        '6.1. The Customer orders a Server by choosing a plan and a Rental Period of 1, 3, 6 or 12 months. The price is debited from the Balance when the order is placed; no Server is provided if the Balance is insufficient.',
        '6.2. Access details of the Server are shown in the Client Area. The Provider stores Server passwords in encrypted form; the Customer should change the password after first access.',
        '6.3. The Customer can start, shut down and reboot the Server from the Client Area. Each operation usually takes 1–2 minutes, during which the Server and its software are unavailable.',
        '6.4. The Customer may renew a Server at any time before the Paid-Until Date; the new Rental Period is added to the current one and is charged at the prices in effect at the time of renewal.',
        '6.5. Auto-renewal. The Customer can enable or disable auto-renewal for each Server. If it is enabled, on the Paid-Until Date the Provider debits the price of the same Rental Period from the Balance and extends the Server. If the Balance is insufficient, the Server is not renewed and clause 6.7 applies.',
        '6.6. The Provider e-mails the Customer reminders 3 days and 1 day before the Paid-Until Date. Failure to receive a reminder, including because of spam filtering or an outdated address, does not relieve the Customer of the duty to watch the Paid-Until Date shown in the Client Area.',
        '6.7. Non-payment. A Server not renewed by its Paid-Until Date receives the status “Blocked”: it is stopped and unavailable, but its data is kept for the grace period indicated in the Client Area (the “Grace Period”), during which the Customer may restore the Server by paying for renewal. If the Server is not paid for by the end of the Grace Period, it receives the status “Revoked”: the Server is deleted and all of its data, including files, terminal settings and installed software, is permanently erased and cannot be restored.',
        '6.8. The Customer is solely responsible for backing up their data. The Provider is not liable for data loss caused by the Customer’s actions, non-payment or circumstances beyond its control.',
        '6.9. The Server comes with Windows pre-installed. The Customer has administrator rights and is responsible for the lawful use, configuration and operation of the software they install (including terminals, expert advisors, scripts and indicators) and for the security of the Server, including password strength, software updates and firewall settings.',
      ],
    },
    {
      heading: '7. Test Servers',
      paragraphs: [
        '7.1. The Customer may apply for a free Test Server in the Client Area. The Provider reviews each application and may grant or refuse it at its discretion without giving reasons.',
        '7.2. A Test Server is provided for the period and in the configuration specified by the Provider. As a rule, one person may receive only one Test Server.',
        '7.3. The Provider may stop a Test Server at any time, in particular in case of abuse. On expiry of the test period the Test Server and its data are deleted unless the Customer orders a paid Server as offered in the Client Area.',
        '7.4. Test Servers are provided “as is”, without service level commitments; all other provisions of this Offer, including acceptable use, apply to them.',
      ],
    },
    {
      heading: '8. Upgrades',
      paragraphs: [
        '8.1. The Customer may upgrade an active Server to a higher plan in the Client Area where this option is available. The cost is calculated for the remaining part of the paid Rental Period, shown before confirmation and debited from the Balance.',
        '8.2. An upgrade may require the Server to be stopped or migrated, with downtime of up to 1 hour. The Customer is responsible for preparing for it, including managing open positions and making sure that terminals and expert advisors are restarted correctly afterwards.',
        '8.3. A downgrade during a paid Rental Period is possible only if offered in the Client Area; the price difference is not refunded unless expressly stated there.',
      ],
    },
    {
      heading: '9. Acceptable Use',
      paragraphs: [
        '9.1. The Customer shall use the Services lawfully and in good faith. In particular, the following is prohibited:',
        '(a) sending spam or other unsolicited bulk messages, or hosting resources advertised by spam;',
        '(b) network attacks of any kind, including DDoS, port scanning, password brute-forcing and exploitation of vulnerabilities, as well as distributing malware or operating botnets;',
        '(c) storing or distributing illegal content, including content infringing intellectual property rights, child sexual abuse material, extremist materials and phishing pages;',
        '(d) cryptocurrency mining and any other activity creating a sustained maximum load on the processor, memory, disk or network unrelated to the normal operation of trading software;',
        '(e) running public proxies, VPN services, Tor exit nodes or open mail relays without the Provider’s prior consent;',
        '(f) fraud, including the use of stolen payment instruments or unlawfully obtained data;',
        '(g) attempts to gain unauthorised access to other systems, accounts or the Provider’s infrastructure, and interfering with other customers’ Services;',
        '(h) using unlicensed software or violating software licence terms;',
        '(i) reselling the Services without the Provider’s written consent;',
        '(j) any other activity prohibited by applicable law or infringing the rights of third parties.',
        '9.2. In case of a breach or reasonable suspicion of one, or upon a complaint or a request of a competent authority, the Provider may restrict network access or suspend the Server or Account, without prior notice where necessary to stop harm, and require the Customer to remedy the breach. The Customer shall cooperate in the investigation of complaints. For a material or repeated breach the Provider may terminate the Agreement; amounts paid are then not refunded and the Provider may claim its losses.',
      ],
    },
    {
      heading: '10. Service Level and Maintenance',
      paragraphs: [
        '10.1. The Provider takes reasonable measures to ensure continuous operation of the Servers and the Client Area, including monitoring of equipment and network connectivity.',
        '10.2. Where planned maintenance may make Servers unavailable, the Provider notifies Customers in advance by e-mail or in the Client Area whenever possible and seeks to schedule it for periods of low trading activity, in particular weekends. Emergency work may be carried out without notice where necessary to eliminate failures or security threats.',
        '10.3. The following is not a failure of the Provider: unavailability caused by the Customer’s actions or software; operations initiated by the Customer (start, shutdown, reboot, upgrade); announced maintenance; blocking for non-payment or breach of this Offer; failures of third-party networks, brokers’ servers or the Customer’s Internet provider; and force majeure.',
        '10.4. If a Server has been unavailable through the Provider’s fault for a significant time, the Customer may submit a Ticket, and the Provider may at its discretion credit the Balance in proportion to the duration of the unavailability. Such credit is the Customer’s sole remedy for unavailability.',
      ],
    },
    {
      heading: '11. No Trading Advice; Trading Risks',
      paragraphs: [
        '11.1. The Provider gives no investment, financial, tax or trading advice, manages no funds and does not recommend brokers, strategies, expert advisors or signals. Any information in the Client Area, the Monitoring Service or from Support is for information only.',
        '11.2. Trading in financial markets, including foreign exchange and CFDs, carries a high level of risk and may result in the loss of all invested funds. The Customer makes all trading decisions independently and at their own risk.',
        '11.3. The Provider is not liable for trading losses, lost profits, missed or erroneous trades, slippage, requotes or any other trading results, including those related to terminals, expert advisors, brokers’ servers, network latency or unavailability of a Server for any reason, including maintenance, upgrades and blocking for non-payment.',
      ],
    },
    {
      heading: '12. Monitoring Service',
      paragraphs: [
        '12.1. The Monitoring Service lets the Customer connect trading accounts, view their statistics, set drawdown alerts, receive notifications through the Telegram bot and publish a public account page. It is provided by subscription on the terms and at the prices shown in the Client Area, paid from the Balance.',
        '12.2. To connect a trading account, the Customer provides the data required, such as the account number and trading server. Where credentials are required, the Customer should provide read-only (investor) access only. The Customer confirms that they are entitled to connect the account and publish its data.',
        '12.3. Statistics and alerts are based on data from the trading account and third-party sources and may be delayed, incomplete or inaccurate. Drawdown alerts and Telegram notifications are auxiliary tools, do not guarantee timely notice and must not be the only means of risk control.',
        '12.4. To use the Telegram bot, the Customer links their Telegram chat to the Account. Telegram is a third-party service governed by its own terms; the Provider is not responsible for its availability.',
        '12.5. If the Customer makes an account page public, its statistics become visible to anyone with the link, without authorisation. The Customer may disable public access at any time; the Provider is not responsible for copies made by third parties while the page was public.',
        '12.6. The Customer shall not use the Monitoring Service to mislead investors or others, including by publishing statistics of accounts they do not control or misrepresenting results.',
      ],
    },
    {
      heading: '13. Partner Programme',
      paragraphs: [
        '13.1. Any Customer may take part in the Partner Programme using the referral link or code in the Partner section of the Client Area.',
        '13.2. The programme has three levels: level 1 — users who registered directly through the Partner’s link or code; level 2 — users who registered through the links or codes of level 1 Referrals; level 3 — users who registered through the links or codes of level 2 Referrals. The link between a Partner and a Referral is fixed when the Referral registers and cannot be changed later.',
        '13.3. For each level the Partner receives a reward equal to a percentage of the payments for Services made by Referrals of that level. The percentages, the payments counted and other conditions are published in the Partner section. Rewards are lifetime: they accrue for as long as the Referral pays for the Services and the Partner’s Account and the programme exist. No rewards accrue on amounts that are refunded, charged back or paid with bonus funds, and rewards already accrued on them may be cancelled.',
        '13.4. Rewards are credited to the Partner’s reward balance and may be used to pay for the Services or withdrawn.',
        '13.5. Withdrawals are requested in the Client Area by the methods available there. The minimum withdrawal amount is set by the Provider and shown in the Client Area. Requests are processed within 5 working days. Fees of payment providers and networks are borne by the Partner. The Provider may require identity verification before processing a withdrawal.',
        '13.6. Self-referral is prohibited, that is, registering as Referrals the Partner’s own additional Accounts or Accounts the Partner controls. Also prohibited are fictitious Referrals, spam, misleading advertising, presenting oneself as the Provider or using the TradeHost name in a misleading way, and any other manipulation of the programme. For such breaches the Provider may cancel rewards obtained through them, refuse withdrawals and exclude the Partner from the programme.',
        '13.7. The Provider may change the programme conditions, including the percentages, for the future by publishing them in the Client Area. Rewards already credited are not affected, except as provided in clause 13.6.',
      ],
    },
    {
      heading: '14. Support',
      paragraphs: [
        '14.1. The Customer contacts the Provider by Tickets in the Support section of the Client Area. Support is provided in English and Russian.',
        '14.2. Files in JPEG, GIF, PNG and PDF formats of up to 5 MB each may be attached to Tickets. Full payment card details or excessive personal data must not be sent in Tickets.',
        '14.3. The Provider endeavours to answer Tickets as quickly as possible. Support covers the operation of the Services; help with configuring trading software is given on a best-effort basis, without responsibility for the result.',
        '14.4. Tickets and notices sent to the Customer’s e-mail address are recognised by the Parties as proper written communication.',
      ],
    },
    {
      heading: '15. Liability',
      paragraphs: [
        '15.1. To the extent permitted by applicable law, the Provider is not liable for indirect losses, lost profits, loss of data, trading losses or lost business opportunities, however caused.',
        '15.2. The Provider’s total liability for any claim is limited to the amount paid by the Customer for the Service concerned for the one month preceding the event giving rise to the claim.',
        '15.3. The Provider is not liable for third-party services, including payment providers, blockchain networks, brokers, Telegram, e-mail and Internet providers, or for the consequences of inaccurate data provided by the Customer.',
        '15.4. The Customer shall compensate the Provider for losses, including fines and third-party claims, resulting from the Customer’s breach of this Offer or the law.',
        '15.5. Nothing in this Offer limits liability that cannot be limited under mandatory law.',
      ],
    },
    {
      heading: '16. Force Majeure',
      paragraphs: [
        '16.1. The Parties are not liable for failure to perform caused by circumstances beyond their reasonable control, including natural disasters, fires, floods, military operations, terrorism, epidemics, acts of public authorities, sanctions, large-scale power outages, failures of backbone networks and large-scale network attacks.',
        '16.2. The affected Party shall notify the other within a reasonable time. If force majeure lasts more than 30 days, either Party may terminate the Agreement, and the unused part of paid Services is credited back to the Balance.',
      ],
    },
    {
      heading: '17. Changes to the Offer',
      paragraphs: [
        '17.1. The Provider may amend this Offer by publishing a new version in the Client Area with its effective date. Material changes are notified by e-mail or in the Client Area at least 10 days in advance, except changes required by law or security, which may take effect sooner.',
        '17.2. A Customer who disagrees with the changes may terminate the Agreement under Section 18 before they take effect. Continued use of the Services after the effective date means acceptance of the new version.',
        '17.3. Price changes do not affect Rental Periods and subscriptions already paid.',
      ],
    },
    {
      heading: '18. Term and Termination',
      paragraphs: [
        '18.1. The Agreement is concluded for an indefinite term.',
        '18.2. The Customer may terminate it at any time by submitting a Ticket requesting deletion of the Account. Active Servers are deleted with their data, and the unused Balance may be refunded under clause 5.8.',
        '18.3. The Provider may terminate the Agreement by notice to the Customer in case of breach of this Offer or suspected fraud, where required by law or a competent authority, or without cause on at least 30 days’ notice, in which case the unused part of paid Rental Periods is refunded.',
        '18.4. Provisions that by their nature should survive termination, including those on payments, liability and disputes, remain in force.',
      ],
    },
    {
      heading: '19. Governing Law and Disputes',
      paragraphs: [
        '19.1. This Agreement is governed by the law of the Provider’s place of registration.',
        '19.2. The Parties shall seek to settle disputes by negotiation. Before going to court, the Customer sends a claim by Ticket describing the dispute and the Customer’s demands; the Provider responds within 30 days of receipt.',
        '19.3. Unsettled disputes are resolved by the competent court at the Provider’s place of registration, unless mandatory law provides otherwise.',
        '19.4. If any provision of this Offer is held invalid, the remaining provisions remain in force.',
      ],
    },
    {
      heading: '20. Contacts',
      paragraphs: [
        '20.1. All communications with the Provider, including claims and notices relating to this Offer, are sent through the Support section of the Client Area, which is the official channel for contacting the Provider.',
        '20.2. The Provider sends notices to the e-mail address specified in the Account and/or through the Client Area. The Customer is responsible for keeping the e-mail address up to date.',
      ],
    },
  ],
};
