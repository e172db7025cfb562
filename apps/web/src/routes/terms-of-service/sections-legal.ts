import type { TermsSection } from './terms-section.ts';

// Sections 18–26: liability, disputes and the general provisions. Section 25 is Miscellaneous
// and 26 Notice (SPEC §9).
export const LEGAL_SECTIONS: readonly TermsSection[] = [
  {
    id: 'limitation-of-liability',
    title: 'Limitation of liability',
    paragraphs: [
      'TO THE FULLEST EXTENT PERMITTED BY LAW, WE ARE NOT LIABLE FOR ANY INDIRECT, INCIDENTAL, SPECIAL, CONSEQUENTIAL OR PUNITIVE DAMAGES, OR FOR ANY LOSS OF PROFITS, TRADING LOSSES, LOSS OF DATA OR LOSS OF GOODWILL, ARISING FROM OR RELATED TO THE SERVICES, EVEN IF WE WERE ADVISED OF THEIR POSSIBILITY.',
      'OUR TOTAL LIABILITY FOR ALL CLAIMS ARISING FROM OR RELATED TO THE SERVICES OR THESE TERMS IS LIMITED TO THE LOWER OF 100 USD OR THE AMOUNT YOU PAID US FOR THE SERVICES IN THE 12 MONTHS BEFORE THE EVENT GIVING RISE TO THE CLAIM.',
    ],
  },
  {
    id: 'indemnification',
    title: 'Indemnification',
    paragraphs: [
      'You will defend, indemnify and hold harmless us and our officers, employees and agents from any claim, loss, liability or expense, including reasonable legal fees, arising from your use of the Services, the signals you send, your breach of these Terms or your violation of any law or of the rights of a third party.',
    ],
  },
  {
    id: 'termination',
    title: 'Suspension and termination',
    paragraphs: [
      'You may stop using the Services and close your account at any time. We may suspend or terminate your access, or deactivate webhooks and connections, if you breach these Terms, if required by law or a broker, or to protect the Services or other users.',
      'Sections that by their nature should survive termination, including those on payments, intellectual property, disclaimers, limitation of liability, indemnification and disputes, survive it.',
    ],
  },
  {
    id: 'international-use',
    title: 'International use and export',
    paragraphs: [
      'The Services are controlled and operated from the United States. We make no guarantee that they are appropriate or available for use in other locations, and if you use them elsewhere you are responsible for complying with local law.',
      'Access to the Services from territories where their content or use is illegal is prohibited.',
      'You may not use, export or re-export any content of the Services, or any copy or adaptation of it, in breach of any applicable law of the United States, including its export control and sanctions laws.',
    ],
  },
  {
    id: 'time-limit-for-claims',
    title: 'Time limit for claims',
    paragraphs: [
      'Any claim or cause of action arising from or related to the Services or these Terms must be filed within 1 year after it arose; otherwise it is permanently barred.',
    ],
  },
  {
    id: 'arbitration',
    title: 'Dispute resolution and arbitration',
    paragraphs: [
      'Before filing a claim, you agree to contact us and try to resolve the dispute informally for at least 30 days.',
      'Any dispute that is not resolved informally will be settled by binding arbitration in Chicago, Illinois, before a panel of three arbitrators, under the commercial arbitration rules in force at the time. Judgment on the award may be entered in any court having jurisdiction. Disputes are resolved individually; class actions and class arbitrations are not permitted.',
      'Either party may seek injunctive relief in court to protect its intellectual property or confidential information.',
    ],
  },
  {
    id: 'assignment',
    title: 'Assignment',
    paragraphs: [
      'You may not assign or transfer your account, or your rights or obligations under these Terms, without our prior written consent. We may assign or transfer these Terms, in whole or in part, freely and without restriction.',
    ],
  },
  {
    id: 'miscellaneous',
    title: 'Miscellaneous',
    paragraphs: [
      'No partnership, joint venture, employment or agency relationship arises between you and us from these Terms or your use of the Services.',
      'These Terms, together with the policies they refer to, are the entire agreement between you and us about the Services and supersede all prior agreements and understandings.',
      'If any provision of these Terms is held invalid or unenforceable, the rest remains in effect. Our failure to enforce a provision is not a waiver of it. Headings are for convenience only.',
    ],
  },
  {
    id: 'notice',
    title: 'Notice',
    paragraphs: [
      'We may give you notice by email to the address of your account or by post to the address you gave us. Such notice is deemed received 48 hours after it was sent.',
      'We may also give notice through links or messages in the Services; such notice is deemed received 24 hours after it was first displayed to you.',
      'You may give us notice through Contact Support or by email to our support address; it is effective when we receive it.',
    ],
  },
];
