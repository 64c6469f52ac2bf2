import type { Random } from "./random.js";

/**
 * Company names built from word lists. Some carry commas and double quotes, to
 * exercise CSV quoting, and some are non-ASCII (ß upper-cases to SS, the Turkish
 * İ lower-cases to two code points), to exercise case mapping in name searches.
 * The lists are small enough that a large data set repeats a name now and then,
 * as a real one does.
 */
const SURNAMES = [
  "Harrington",
  "Whitfield",
  "Caldwell",
  "Brennan",
  "Okafor",
  "Nakamura",
  "Castillo",
  "Lindqvist",
  "Abernathy",
  "Sinclair",
  "Pemberton",
  "Vasquez",
  "Kowalski",
  "Donnelly",
  "Ashford",
  "Fairbanks",
  "Hargrove",
  "Mercer",
  "Thornton",
  "Blackwell",
  "Prescott",
  "Whitaker",
  "Galloway",
  "Montgomery",
  "Chen",
  "Patel",
  "Gupta",
  "Kim",
  "Schneider",
  "Rossi",
  "Dubois",
  "Moreau",
  "Lefèvre",
  "Müller",
  "Großmann",
  "Schäfer",
  "Nørgaard",
  "Ibáñez",
  "Peña",
  "Çelik",
  "Dvořák",
  "Łukasiewicz",
  "Öztürk",
  "Håkansson",
  "Gonçalves",
  "Kovačević",
  "Ferreira",
  "O'Brien",
  "D'Angelo",
  "McAllister",
  "Fitzgerald",
  "Delacroix",
  "Van der Berg",
  "Okonkwo",
  "Haddad",
  "Yamamoto",
  "Novak",
  "Lindgren",
  "Abbott",
  "Barrington",
  "Cunningham",
  "Ellsworth",
  "Garrison",
  "Holloway",
  "Kensington",
  "Lockhart",
  "Alvarez",
  "Bauer",
  "Bianchi",
  "Brooks",
  "Campbell",
  "Dalton",
  "Eriksen",
  "Farrell",
  "Fischer",
  "Gallagher",
  "Hayes",
  "Ingram",
  "Jensen",
  "Keller",
  "Lambert",
  "Larsen",
  "Maddox",
  "Nguyen",
  "Osei",
  "Park",
  "Quinn",
  "Ramirez",
  "Reyes",
  "Sandoval",
  "Tanaka",
  "Underwood",
  "Vogel",
  "Walsh",
  "Weber",
  "Xu",
  "Yilmaz",
  "Zimmerman",
  "Andersson",
  "Beaumont",
  "Carver",
  "Dempsey",
  "Esposito",
  "Fontaine",
  "Gutiérrez",
  "Hoffmann",
  "Iversen",
  "Jovanović",
  "Kühn",
  "Laurent",
  "Mendoza",
  "Nilsson",
  "Oyelaran",
  "Pérez",
  "Rasmussen",
  "Schwarz",
  "Takahashi",
  "Valdés",
  "Wójcik",
  "Zhou",
];

const PLACES = [
  "Northwind",
  "Lakeshore",
  "Summit",
  "Pacific",
  "Atlantic",
  "Meridian",
  "Pinnacle",
  "Riverside",
  "Granite",
  "Redwood",
  "Bayview",
  "Cedar",
  "Harbor",
  "Highland",
  "Prairie",
  "Keystone",
  "Liberty",
  "Heritage",
  "Evergreen",
  "Silverline",
  "Ironwood",
  "Bluewater",
  "Frontier",
  "Sierra",
  "Cascade",
  "Great Plains",
  "Tidewater",
  "Crescent",
  "Horizon",
  "Aurora",
  "Beacon",
  "Magnolia",
  "Copper Creek",
  "Stonebridge",
  "Willow Bend",
  "Falcon Ridge",
  "Oakmont",
  "Westfield",
  "Brookhaven",
  "Clearwater",
];

// Town names are compounds, so public bodies and charities, which are named after
// places, do not all share a few dozen names.
const TOWN_ROOTS = [
  "Ash",
  "Brook",
  "Cedar",
  "Clear",
  "Elm",
  "Fair",
  "Glen",
  "Green",
  "Hazel",
  "Hill",
  "Lake",
  "Maple",
  "Mill",
  "North",
  "Oak",
  "Pine",
  "River",
  "Rock",
  "Spring",
  "Stone",
  "West",
  "East",
  "South",
  "Wood",
  "Red",
  "Silver",
  "Gold",
  "Bright",
  "Deer",
  "Fox",
  "King",
  "Marsh",
  "Bel",
  "Lin",
  "Mor",
  "Wal",
];
const TOWN_ENDINGS = [
  "ville",
  "ton",
  "field",
  "wood",
  "dale",
  "ford",
  "port",
  "bury",
  "haven",
  "mont",
  "view",
  "ridge",
  "brook",
  "land",
  "stead",
  "worth",
  "burg",
  "side",
  "wick",
  "more",
];
const STATES = [
  "Ohio",
  "Texas",
  "Oregon",
  "Georgia",
  "Iowa",
  "Maine",
  "Nevada",
  "Virginia",
  "Kansas",
  "Utah",
  "Colorado",
  "Michigan",
  "Florida",
  "Montana",
  "Vermont",
  "Indiana",
  "Idaho",
  "Arizona",
  "New York",
  "Illinois",
];
const FIRST_NAMES = [
  "Robert",
  "Linda",
  "James",
  "Mary",
  "William",
  "Patricia",
  "John",
  "Susan",
  "David",
  "Karen",
  "Richard",
  "Nancy",
  "Thomas",
  "Margaret",
  "Charles",
  "Dorothy",
  "George",
  "Helen",
  "Edward",
  "Ruth",
  "Ahmed",
  "Mei",
  "José",
  "Zoë",
  "Søren",
  "Renée",
];

const QUALIFIERS = [
  "Global",
  "American",
  "National",
  "United",
  "International",
  "Advanced",
  "Integrated",
  "Premier",
  "First",
  "Allied",
  "Consolidated",
  "General",
  "Continental",
  "Western",
  "Eastern",
  "Southern",
  "Northern",
  "Mid-Atlantic",
  "Coastal",
  "Metro",
  "Standard",
  "Precision",
  "Pioneer",
  "Trans-Pacific",
];

const SUFFIXES = [
  "Inc.",
  "Inc.",
  ", Inc.",
  "LLC",
  "LLC",
  "LLC",
  "Corp.",
  "Corporation",
  "Holdings",
  "Holdings, Inc.",
  "Group",
  "Co.",
  "Company",
  "Ltd.",
  "L.P.",
  ", L.P.",
  "plc",
  "& Co.",
  "Partners",
  "LLP",
];

/** For "Surname, Surname & Surname" firms, which already hold an ampersand. */
const FIRM_SUFFIXES = ["LLP", "LLC", "P.C.", "Inc."];

const NICKNAMES = ["Blue Ribbon", "Gold Star", "Big Sky", "Red Barn", "Lucky 7", "Top Notch"];

/** Names of firms abroad, spelled as they are at home. */
const FOREIGN: readonly ((random: Random) => string)[] = [
  (r) =>
    `${r.pick(["Société", "Compagnie", "Groupe"])} ${r.pick(["Générale", "Nouvelle", "Européenne", "Française", "Lyonnaise", "Méridionale"])} ` +
    `de ${r.pick(["Logistique", "Transports", "Matériaux", "Télécommunications", "Crédit", "Énergie", "Bâtiment"])} ${r.pick(["S.A.", "SAS", "S.A.R.L."])}`,
  (r) =>
    `${r.pick(["Müller", "Großmann", "Schäfer", "Köhler", "Weiß", "Bäcker", "Fuchs", "Krüger"])} ` +
    `${r.pick(["Maschinenbau", "Straßenbau", "Präzisionstechnik", "Kühlsysteme", "Verpackung", "Logistik", "Elektrotechnik"])} ${r.pick(["GmbH", "AG", "GmbH & Co. KG"])}`,
  (r) =>
    `${r.pick(["Ærø", "Nørre", "Søborg", "Åhus", "Göteborg", "Tromsø", "Jönköping", "Ålesund"])} ${r.pick(["Shipping", "Rederi", "Energi", "Bygg", "Fisk"])} ${r.pick(["A/S", "AB", "ASA"])}`,
  (r) =>
    `${r.pick(["İstanbul", "İzmir", "Ankara", "Eskişehir", "Muğla"])} ${r.pick(["Enerji", "Gıda", "Yatırım", "Tekstil", "İnşaat"])} A.Ş.`,
  (r) =>
    `${r.pick(["Compañía", "Grupo", "Corporación"])} ${r.pick(["Ibérica", "Andina", "Peñalara", "Cantábrica", "Pacífico"])} ` +
    `de ${r.pick(["Energía", "Construcción", "Alimentación", "Seguros", "Minería"])} S.A.`,
  (r) =>
    `${r.pick(["Nakamura", "Yamamoto", "Sato", "Tanaka", "Suzuki", "Watanabe"])} ${r.pick(["Seiki", "Shoji", "Denki", "Kogyo", "Sangyo"])} K.K.`,
];

export type OrganizationType = "PRV" | "PUB" | "NFP" | "PSB";

/** Returns a name for a company of the given type, using the sector's nouns. */
export function createCompanyNamer(random: Random): (type: OrganizationType, nouns: readonly string[]) => string {
  const town = (): string => random.pick(TOWN_ROOTS) + random.pick(TOWN_ENDINGS);

  const acronym = (): string => {
    const length = random.int(2, 4);
    let text = "";
    for (let i = 0; i < length; i++) text += String.fromCharCode(65 + random.int(0, 25));
    return text;
  };

  const commercial = (nouns: readonly string[]): string => {
    const u = random.next();
    const noun = random.pick(nouns);
    const suffix = random.pick(SUFFIXES);
    const join = (base: string): string => (suffix.startsWith(",") ? base + suffix : `${base} ${suffix}`);
    if (u < 0.15) return join(`${random.pick(SURNAMES)} ${noun}`);
    if (u < 0.3) return join(`${random.pick(SURNAMES)} ${random.pick(QUALIFIERS)} ${noun}`);
    if (u < 0.4) return join(`${random.pick(PLACES)} ${noun}`);
    if (u < 0.55) return join(`${town()} ${noun}`);
    if (u < 0.7) return join(`${random.pick(QUALIFIERS)} ${random.pick(PLACES)} ${noun}`);
    if (u < 0.8) return join(`${random.pick(SURNAMES)} & ${random.pick(SURNAMES)}`);
    if (u < 0.88) return join(`${acronym()} ${noun}`);
    if (u < 0.93)
      return `${random.pick(SURNAMES)}, ${random.pick(SURNAMES)} & ${random.pick(SURNAMES)} ${random.pick(FIRM_SUFFIXES)}`;
    if (u < 0.96) return join(`${random.pick(PLACES)} "${random.pick(NICKNAMES)}" ${noun}`);
    return random.pick(FOREIGN)(random);
  };

  return (type, nouns) => {
    switch (type) {
      case "NFP": {
        const u = random.next();
        if (u < 0.35) return `${town()} ${random.pick(nouns)}`;
        if (u < 0.6)
          return `${random.pick(FIRST_NAMES)} and ${random.pick(FIRST_NAMES)} ${random.pick(SURNAMES)} Foundation`;
        if (u < 0.65) return `University of ${town()}`;
        return `${town()} Community ${random.pick(nouns)}`;
      }
      case "PSB": {
        const u = random.next();
        if (u < 0.35) return `City of ${town()}, ${random.pick(STATES)}`;
        if (u < 0.7) return `${town()} County ${random.pick(nouns)}, ${random.pick(STATES)}`;
        if (u < 0.8) return `Port of ${town()}`;
        return `${town()} Regional ${random.pick(nouns)}`;
      }
      default:
        return commercial(nouns);
    }
  };
}
