/**
 * The commercial coverages of the synthetic book, their lines of business, and the
 * losses each one sees. Weights are shares, not probabilities: they are normalised
 * when drawn. Directors & Officers is deliberately the most common coverage, so the
 * "broadest" performance class (CONVENTIONS.md, Performance measurement) holds well
 * over 2% of all programs.
 */
export interface LineOfBusinessSpec {
  readonly id: number;
  readonly name: string;
  readonly weight: number;
  /** Lines such as Side A D&O that sit over other insurance and often carry no retention. */
  readonly zeroRetentionShare?: number;
}

export interface LossKindSpec {
  readonly category: string;
  readonly type: string;
  readonly weight: number;
  /** What the claimants alleged or what happened, for descriptions. */
  readonly allegation: string;
}

export interface CoverageSpec {
  readonly id: number;
  readonly name: string;
  /** Share of programs. */
  readonly weight: number;
  /** Share of loss events. */
  readonly lossWeight: number;
  /** Steps up or down the limit ladder from what the buyer's revenue suggests. */
  readonly limitShift: number;
  /** Median premium / limit (rate on line). */
  readonly rateOnLine: number;
  /** Steps up or down the retention ladder. */
  readonly retentionShift: number;
  /** Median total amount of a paid loss, in dollars. */
  readonly lossMedian: number;
  readonly lines: readonly LineOfBusinessSpec[];
  readonly losses: readonly LossKindSpec[];
}

export const COVERAGES: readonly CoverageSpec[] = [
  {
    id: 1,
    name: "Directors & Officers",
    weight: 30,
    lossWeight: 24,
    limitShift: 0,
    rateOnLine: 0.018,
    retentionShift: 1,
    lossMedian: 2_500_000,
    lines: [
      { id: 1, name: "Public D&O", weight: 30 },
      { id: 2, name: "Private D&O", weight: 35 },
      { id: 3, name: "Side A", weight: 12, zeroRetentionShare: 0.9 },
      { id: 4, name: "ABC", weight: 15 },
      { id: 5, name: "Not-for-Profit D&O", weight: 8 },
    ],
    losses: [
      {
        category: "Securities Class Action",
        type: "Stock Drop",
        weight: 30,
        allegation: "misleading statements about quarterly guidance inflated the share price",
      },
      {
        category: "Securities Class Action",
        type: "IPO Litigation",
        weight: 8,
        allegation: "the registration statement omitted material risks",
      },
      {
        category: "Securities Class Action",
        type: "Merger Objection",
        weight: 10,
        allegation: "the proxy statement understated the value of the target",
      },
      {
        category: "Derivative Suit",
        type: "Breach of Fiduciary Duty",
        weight: 15,
        allegation: 'directors failed to oversee compliance, "a classic Caremark claim"',
      },
      {
        category: "Regulatory",
        type: "SEC Enforcement",
        weight: 12,
        allegation: "revenue was recognised before delivery",
      },
      {
        category: "Regulatory",
        type: "DOJ Investigation",
        weight: 6,
        allegation: "officers were aware of improper payments abroad",
      },
      {
        category: "Bankruptcy",
        type: "Creditor Claims",
        weight: 6,
        allegation: "the board continued trading while insolvent",
      },
      {
        category: "Antitrust",
        type: "Price Fixing",
        weight: 5,
        allegation: "executives coordinated prices with competitors",
      },
    ],
  },
  {
    id: 2,
    name: "Employment Practices",
    weight: 9,
    lossWeight: 20,
    limitShift: -1,
    rateOnLine: 0.025,
    retentionShift: 0,
    lossMedian: 150_000,
    lines: [
      { id: 6, name: "Employment Practices Liability", weight: 70 },
      { id: 7, name: "Third-Party Discrimination", weight: 15 },
      { id: 8, name: "Wage & Hour", weight: 15 },
    ],
    losses: [
      {
        category: "Employment",
        type: "Wrongful Termination",
        weight: 30,
        allegation: "a manager was dismissed after reporting safety violations",
      },
      {
        category: "Employment",
        type: "Discrimination",
        weight: 25,
        allegation: "promotions were withheld on the basis of age",
      },
      {
        category: "Employment",
        type: "Sexual Harassment",
        weight: 15,
        allegation: "complaints to human resources were ignored",
      },
      {
        category: "Employment",
        type: "Retaliation",
        weight: 15,
        allegation: "an employee was demoted after filing an EEOC charge",
      },
      {
        category: "Wage and Hour",
        type: "FLSA Collective Action",
        weight: 15,
        allegation: "overtime was not paid to misclassified staff",
      },
    ],
  },
  {
    id: 3,
    name: "Fiduciary Liability",
    weight: 5,
    lossWeight: 5,
    limitShift: -1,
    rateOnLine: 0.012,
    retentionShift: -1,
    lossMedian: 800_000,
    lines: [
      { id: 9, name: "Fiduciary Liability", weight: 80 },
      { id: 10, name: "Excess Fiduciary", weight: 20, zeroRetentionShare: 0.5 },
    ],
    losses: [
      {
        category: "ERISA",
        type: "Excessive Fees",
        weight: 50,
        allegation: "the 401(k) plan kept high-cost share classes",
      },
      {
        category: "ERISA",
        type: "Stock Drop",
        weight: 20,
        allegation: "plan fiduciaries kept company stock as an investment option",
      },
      { category: "ERISA", type: "Benefit Denial", weight: 30, allegation: "pension benefits were miscalculated" },
    ],
  },
  {
    id: 4,
    name: "Cyber",
    weight: 9,
    lossWeight: 15,
    limitShift: 0,
    rateOnLine: 0.035,
    retentionShift: 0,
    lossMedian: 400_000,
    lines: [
      { id: 11, name: "Network Security & Privacy", weight: 45 },
      { id: 12, name: "Cyber Extortion", weight: 15 },
      { id: 13, name: "Cyber Business Interruption", weight: 20 },
      { id: 14, name: "Media Liability", weight: 10 },
      { id: 15, name: "Excess Cyber", weight: 10 },
    ],
    losses: [
      {
        category: "Data Breach",
        type: "Ransomware",
        weight: 35,
        allegation: "attackers encrypted servers and demanded payment in bitcoin",
      },
      {
        category: "Data Breach",
        type: "Hacking",
        weight: 20,
        allegation: "customer records were taken through an unpatched VPN",
      },
      {
        category: "Data Breach",
        type: "Lost Device",
        weight: 5,
        allegation: "an unencrypted laptop holding patient data was stolen",
      },
      {
        category: "Privacy",
        type: "BIPA Class Action",
        weight: 15,
        allegation: "fingerprints were collected without written consent",
      },
      { category: "Privacy", type: "Wiretapping", weight: 10, allegation: "website session replay recorded visitors" },
      {
        category: "Business Interruption",
        type: "System Outage",
        weight: 15,
        allegation: "a vendor outage halted order processing",
      },
    ],
  },
  {
    id: 5,
    name: "Errors & Omissions",
    weight: 7,
    lossWeight: 8,
    limitShift: -1,
    rateOnLine: 0.03,
    retentionShift: 0,
    lossMedian: 600_000,
    lines: [
      { id: 16, name: "Miscellaneous Professional", weight: 30 },
      { id: 17, name: "Technology E&O", weight: 30 },
      { id: 18, name: "Lawyers Professional", weight: 15 },
      { id: 19, name: "Architects & Engineers", weight: 15 },
      { id: 20, name: "Medical Malpractice", weight: 10 },
    ],
    losses: [
      {
        category: "Professional Negligence",
        type: "Failure to Perform",
        weight: 40,
        allegation: "the software implementation missed its go-live date",
      },
      {
        category: "Professional Negligence",
        type: "Misrepresentation",
        weight: 25,
        allegation: "advice on a tax structure proved wrong",
      },
      {
        category: "Intellectual Property",
        type: "Copyright Infringement",
        weight: 15,
        allegation: "licensed code was reused without permission",
      },
      {
        category: "Medical Malpractice",
        type: "Misdiagnosis",
        weight: 20,
        allegation: "a delayed diagnosis worsened the patient's condition",
      },
    ],
  },
  {
    id: 6,
    name: "General Liability",
    weight: 14,
    lossWeight: 10,
    limitShift: -1,
    rateOnLine: 0.02,
    retentionShift: -1,
    lossMedian: 120_000,
    lines: [
      { id: 21, name: "Premises & Operations", weight: 50 },
      { id: 22, name: "Products & Completed Operations", weight: 35 },
      { id: 23, name: "Product Recall", weight: 15 },
    ],
    losses: [
      { category: "Bodily Injury", type: "Slip and Fall", weight: 40, allegation: "a visitor fell on an icy walkway" },
      {
        category: "Product Liability",
        type: "Defective Product",
        weight: 25,
        allegation: "a heater overheated and caused burns",
      },
      {
        category: "Product Liability",
        type: "Product Recall",
        weight: 10,
        allegation: "contaminated batches were shipped to retailers",
      },
      {
        category: "Property Damage",
        type: "Third-Party Property",
        weight: 15,
        allegation: "a subcontractor flooded the neighbouring unit",
      },
      {
        category: "Advertising Injury",
        type: "Defamation",
        weight: 10,
        allegation: "an advertisement disparaged a competitor",
      },
    ],
  },
  {
    id: 7,
    name: "Property",
    weight: 12,
    lossWeight: 6,
    limitShift: 2,
    rateOnLine: 0.006,
    retentionShift: 0,
    lossMedian: 900_000,
    lines: [
      { id: 24, name: "All Risk Property", weight: 60 },
      { id: 25, name: "Builders Risk", weight: 10 },
      { id: 26, name: "Equipment Breakdown", weight: 15 },
      { id: 27, name: "Business Interruption", weight: 15 },
    ],
    losses: [
      {
        category: "Natural Catastrophe",
        type: "Hurricane",
        weight: 25,
        allegation: "wind and storm surge damaged the warehouse roof",
      },
      {
        category: "Natural Catastrophe",
        type: "Wildfire",
        weight: 15,
        allegation: "the plant was evacuated and partly burned",
      },
      {
        category: "Natural Catastrophe",
        type: "Flood",
        weight: 20,
        allegation: "river flooding closed the distribution centre",
      },
      { category: "Fire", type: "Fire", weight: 25, allegation: "an electrical fault started a fire in the kitchen" },
      {
        category: "Equipment Breakdown",
        type: "Boiler Explosion",
        weight: 15,
        allegation: "a boiler failed and stopped production",
      },
    ],
  },
  {
    id: 8,
    name: "Crime",
    weight: 4,
    lossWeight: 5,
    limitShift: -2,
    rateOnLine: 0.01,
    retentionShift: -1,
    lossMedian: 250_000,
    lines: [
      { id: 28, name: "Commercial Crime", weight: 60 },
      { id: 29, name: "Social Engineering Fraud", weight: 25 },
      { id: 30, name: "Kidnap & Ransom", weight: 15 },
    ],
    losses: [
      {
        category: "Fraud",
        type: "Employee Embezzlement",
        weight: 35,
        allegation: "a bookkeeper diverted funds over several years",
      },
      {
        category: "Fraud",
        type: "Social Engineering",
        weight: 35,
        allegation: 'a spoofed e-mail from the "CEO" requested an urgent wire',
      },
      {
        category: "Fraud",
        type: "Funds Transfer Fraud",
        weight: 20,
        allegation: "bank credentials were used to send payments abroad",
      },
      {
        category: "Theft",
        type: "Inventory Theft",
        weight: 10,
        allegation: "goods went missing from the loading dock",
      },
    ],
  },
  {
    id: 9,
    name: "Umbrella & Excess",
    weight: 5,
    lossWeight: 4,
    limitShift: 1,
    rateOnLine: 0.008,
    retentionShift: 2,
    lossMedian: 3_000_000,
    lines: [
      { id: 31, name: "Commercial Umbrella", weight: 55 },
      { id: 32, name: "Lead Excess", weight: 25 },
      { id: 33, name: "Excess Layer", weight: 20, zeroRetentionShare: 0.3 },
    ],
    losses: [
      {
        category: "Bodily Injury",
        type: "Auto Accident",
        weight: 45,
        allegation: "a delivery truck struck a passenger car",
      },
      {
        category: "Mass Tort",
        type: "Toxic Exposure",
        weight: 30,
        allegation: "residents alleged exposure to solvents",
      },
      { category: "Environmental", type: "Pollution", weight: 25, allegation: "a pipeline leak reached groundwater" },
    ],
  },
  {
    id: 10,
    name: "Workers Compensation",
    weight: 5,
    lossWeight: 3,
    limitShift: -1,
    rateOnLine: 0.04,
    retentionShift: 0,
    lossMedian: 60_000,
    lines: [
      { id: 34, name: "Workers Compensation", weight: 70 },
      { id: 35, name: "Employers Liability", weight: 30 },
    ],
    losses: [
      {
        category: "Workplace Injury",
        type: "Occupational Illness",
        weight: 30,
        allegation: "long-term exposure to dust caused lung disease",
      },
      { category: "Workplace Injury", type: "Fatality", weight: 10, allegation: "a worker fell from scaffolding" },
      {
        category: "Workplace Injury",
        type: "Repetitive Strain",
        weight: 60,
        allegation: "warehouse staff developed back injuries",
      },
    ],
  },
];
