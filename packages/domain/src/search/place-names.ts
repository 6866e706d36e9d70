import type { CountryCode } from '../events/events.js';
import { foldText } from '../shared/text.js';
import { splitWords } from './search-analysis.js';

/**
 * Place names in every language (API 1.4; docs/api.md, "Place names"): the other names of the largest
 * cities of each live dataset, so `munich`, `Múnich` or `Monaco di Baviera` reach München's records in
 * search (`q` with `sort=relevance`), in `city` and in suggest. Pure data and lookups: nothing is indexed,
 * so the table can grow without a reindex.
 *
 * Sources: the city's article title in the English, German, Spanish, French, Italian and Portuguese
 * Wikipedia (text CC BY-SA 4.0) and its Wikidata labels in those languages (CC0), plus co-official names
 * (Basque, Catalan/Valencian, Galician, Asturian, German in South Tyrol) and well-established historical
 * forms (Corunna, Leghorn, Oporto). Only names those sources give; cities with no other name are left out.
 *
 * One line a city: the name its records publish, its slug as the live dataset writes it, then its other
 * names. In `de` the umlaut spelling with ae/oe/ue ("Muenchen") is added by rule: German writes it so
 * wherever umlauts are unavailable.
 *
 * A group is one city: every name folds (`foldText`) to a key, and every name's slug is one of the city's
 * slugs, which the `city` filter treats as one (a dataset built from other name lists, such as the sample
 * data's "Munich" with the slug `munich`, is served the same way).
 */
type CityNamesLine = readonly [name: string, slug: string, ...otherNames: string[]];

// One line a city, however long, so a city's names are read and reviewed together.
// prettier-ignore
const CITY_NAME_LINES: Partial<Record<CountryCode, ReadonlyArray<CityNamesLine>>> = {
  de: [
    ['Berlin', 'berlin', 'Berlino', 'Berlim'],
    ['Hamburg', 'hamburg', 'Hambourg', 'Hamburgo', 'Amburgo'],
    ['München', 'muenchen', 'Munich', 'Múnich', 'Monaco di Baviera', 'Munique'],
    ['Köln', 'koeln', 'Cologne', 'Colonia', 'Colónia', 'Colônia'],
    ['Frankfurt am Main', 'frankfurt-am-main', 'Frankfurt', 'Francfort-sur-le-Main', 'Francfort', 'Fráncfort del Meno', 'Fráncfort', 'Francoforte sul Meno', 'Francoforte'],
    ['Stuttgart', 'stuttgart', 'Stoccarda'],
    ['Düsseldorf', 'duesseldorf'],
    ['Leipzig', 'leipzig', 'Lipsia'],
    ['Bremen', 'bremen', 'Brême', 'Brema'],
    ['Dresden', 'dresden', 'Dresde', 'Dresda'],
    ['Hannover', 'hannover', 'Hanover', 'Hanovre'],
    ['Nürnberg', 'nuernberg', 'Nuremberg', 'Núremberg', 'Norimberga', 'Nuremberga'],
    ['Münster', 'muenster'],
    ['Aachen', 'aachen', 'Aix-la-Chapelle', 'Aquisgrán', 'Aquisgrana'],
    ['Mönchengladbach', 'moenchengladbach'],
    ['Chemnitz', 'chemnitz', 'Karl-Marx-Stadt'],
    ['Augsburg', 'augsburg', 'Augsbourg', 'Augsburgo', 'Augusta'],
    ['Braunschweig', 'braunschweig', 'Brunswick'],
    ['Halle (Saale)', 'halle-saale', 'Halle an der Saale'],
    ['Magdeburg', 'magdeburg', 'Magdebourg', 'Magdeburgo'],
    ['Freiburg im Breisgau', 'freiburg-im-breisgau', 'Freiburg', 'Fribourg-en-Brisgau', 'Friburgo de Brisgovia', 'Friburgo in Brisgovia'],
    ['Lübeck', 'luebeck', 'Lubecca'],
    ['Kassel', 'kassel', 'Cassel'],
    ['Mainz', 'mainz', 'Mayence', 'Maguncia', 'Magonza'],
    ['Saarbrücken', 'saarbruecken', 'Sarrebruck'],
    ['Mülheim an der Ruhr', 'muelheim-an-der-ruhr', 'Mülheim'],
    ['Osnabrück', 'osnabrueck'],
    ['Ludwigshafen am Rhein', 'ludwigshafen-am-rhein', 'Ludwigshafen'],
    ['Regensburg', 'regensburg', 'Ratisbonne', 'Ratisbona'],
  ],
  es: [
    ['Madrid', 'madrid', 'Madri'],
    ['Barcelona', 'barcelona', 'Barcelone', 'Barcellona'],
    ['Valencia', 'valencia', 'València', 'Valence'],
    ['Sevilla', 'sevilla', 'Seville', 'Séville', 'Siviglia', 'Sevilha'],
    ['Zaragoza', 'zaragoza', 'Saragossa', 'Saragosse', 'Saragozza', 'Saragoça'],
    ['Murcia', 'murcia', 'Murcie'],
    ['Palma', 'palma', 'Palma de Mallorca'],
    ['Las Palmas de Gran Canaria', 'las-palmas-de-gran-canaria', 'Las Palmas'],
    ['Bilbao', 'bilbao', 'Bilbo'],
    ['Alicante', 'alicante', 'Alacant'],
    ['Córdoba', 'cordoba', 'Cordoue', 'Cordova'],
    ['Gijón', 'gijon', 'Xixón'],
    ["L'Hospitalet de Llobregat", 'l-hospitalet-de-llobregat', 'Hospitalet de Llobregat'],
    ['A Coruña', 'a-coruna', 'La Coruña', 'Corunna', 'La Corogne'],
    ['Vitoria-Gasteiz', 'vitoria-gasteiz', 'Vitoria', 'Gasteiz'],
    ['Granada', 'granada', 'Grenade'],
    ['Elche', 'elche', 'Elx'],
    ['Oviedo', 'oviedo', 'Uviéu'],
    ['Cartagena', 'cartagena', 'Carthagène'],
    ['Terrassa', 'terrassa', 'Tarrasa'],
    ['Jerez de la Frontera', 'jerez-de-la-frontera', 'Jerez'],
    ['Pamplona', 'pamplona', 'Iruña', 'Iruñea', 'Pampelune'],
    ['San Sebastián', 'san-sebastian', 'Donostia', 'Donostia-San Sebastián', 'Saint-Sébastien'],
    ['Castellón de la Plana', 'castellon-de-la-plana', 'Castelló de la Plana', 'Castellón', 'Castelló'],
    ['San Cristóbal de La Laguna', 'san-cristobal-de-la-laguna', 'La Laguna'],
    ['Tarragona', 'tarragona', 'Tarragone'],
    ['Lleida', 'lleida', 'Lérida'],
    ['Cádiz', 'cadiz', 'Cadix'],
    ['Girona', 'girona', 'Gerona'],
    ['Ourense', 'ourense', 'Orense'],
  ],
  it: [
    ['Roma', 'roma', 'Rome', 'Rom'],
    ['Milano', 'milano', 'Milan', 'Mailand', 'Milán', 'Milão'],
    ['Napoli', 'napoli', 'Naples', 'Neapel', 'Nápoles'],
    ['Torino', 'torino', 'Turin', 'Turim'],
    ['Palermo', 'palermo', 'Palerme'],
    ['Genova', 'genova', 'Genoa', 'Genua', 'Gênes'],
    ['Bologna', 'bologna', 'Bologne', 'Bolonia', 'Bolonha'],
    ['Firenze', 'firenze', 'Florence', 'Florenz', 'Florencia', 'Florença'],
    ['Catania', 'catania', 'Catane'],
    ['Venezia', 'venezia', 'Venice', 'Venedig', 'Venise', 'Venecia', 'Veneza'],
    ['Messina', 'messina', 'Messine'],
    ['Verona', 'verona', 'Vérone'],
    ['Padova', 'padova', 'Padua', 'Padoue', 'Pádua'],
    ['Trieste', 'trieste', 'Triest'],
    ['Taranto', 'taranto', 'Tarente', 'Tarent'],
    ['Reggio Calabria', 'reggio-calabria', 'Reggio di Calabria'],
    ['Modena', 'modena', 'Modène'],
    ['Livorno', 'livorno', 'Livourne', 'Leghorn'],
    ['Parma', 'parma', 'Parme'],
    ['Reggio Emilia', 'reggio-emilia', "Reggio nell'Emilia"],
    ['Salerno', 'salerno', 'Salerne'],
    ['Perugia', 'perugia', 'Pérouse'],
    ['Bergamo', 'bergamo', 'Bergame'],
    ['Vicenza', 'vicenza', 'Vicence'],
    ['Bolzano', 'bolzano', 'Bozen'],
    ['Siracusa', 'siracusa', 'Syracuse', 'Syrakus'],
    ['Novara', 'novara', 'Novare'],
    ['Piacenza', 'piacenza', 'Plaisance'],
    ['Ferrara', 'ferrara', 'Ferrare'],
    ['Ancona', 'ancona', 'Ancône'],
    ['Como', 'como', 'Côme'],
    ['Lucca', 'lucca', 'Lucques'],
    ['Ravenna', 'ravenna', 'Ravenne'],
    ['Trento', 'trento', 'Trient', 'Trente'],
  ],
  pt: [
    ['Lisboa', 'lisboa', 'Lisbon', 'Lissabon', 'Lisbonne', 'Lisbona'],
    ['Porto', 'porto', 'Oporto'],
    ['Vila Nova de Gaia', 'vila-nova-de-gaia', 'Gaia'],
    ['Bragança', 'braganca', 'Braganza'],
  ],
};

/** One city: its slug as published and every slug and folded name it goes by. */
export type CityNameGroup = {
  slug: string;
  slugs: ReadonlyArray<string>;
  /** Each name as its folded words (search-analysis.ts), for matching a query's words. */
  names: ReadonlyArray<ReadonlyArray<string>>;
};

type CountryPlaceNames = {
  groups: ReadonlyArray<CityNameGroup>;
  bySlug: ReadonlyMap<string, CityNameGroup>;
};

const UMLAUT_SPELLING: Readonly<Record<string, string>> = { ä: 'ae', ö: 'oe', ü: 'ue' };

/** A name as German writes it without umlauts: "München" → "muenchen". */
export function umlautSpelling(name: string): string {
  return name.toLowerCase().replace(/[äöü]/g, (umlaut) => UMLAUT_SPELLING[umlaut] ?? umlaut);
}

/** A name as a slug: folded, each run of other characters one dash, none at either end. */
export function nameSlug(name: string): string {
  return foldText(name)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function groupOf(country: CountryCode, [name, slug, ...otherNames]: CityNamesLine): CityNameGroup {
  const written = [name, ...otherNames];
  const allNames = country === 'de' ? [...written, ...written.map(umlautSpelling)] : written;
  const slugs = new Set([slug, ...allNames.map(nameSlug)]);
  const folded = new Set(allNames.map(foldText));
  return { slug, slugs: [...slugs], names: [...folded].map(splitWords) };
}

const PLACE_NAMES: ReadonlyMap<CountryCode, CountryPlaceNames> = new Map(
  Object.entries(CITY_NAME_LINES).map(([country, lines]) => {
    const groups = lines.map((line) => groupOf(country as CountryCode, line));
    const bySlug = new Map(groups.flatMap((group) => group.slugs.map((slug) => [slug, group] as const)));
    return [country as CountryCode, { groups, bySlug }];
  }),
);

/** The cities of a dataset that have other names (none for a dataset without the table). */
export function cityNameGroupsOf(country: CountryCode): ReadonlyArray<CityNameGroup> {
  return PLACE_NAMES.get(country)?.groups ?? [];
}

/** Every slug the city of `slug` goes by in the dataset (`munich` → `muenchen`, `munich`, …); else just `slug`. */
export function citySlugsOf(country: CountryCode, slug: string): ReadonlyArray<string> {
  return PLACE_NAMES.get(country)?.bySlug.get(slug)?.slugs ?? [slug];
}

/**
 * For each word of a query, the slugs of the city one of whose names the word is part of, where the
 * query holds that whole name (["zahnarzt", "monaco", "di", "baviera"] marks the last three with
 * München's slugs); an empty list for the other words. Whole words only: no prefixes, no typos.
 */
export function citySlugsByWord(
  country: CountryCode,
  words: ReadonlyArray<string>,
): Array<ReadonlyArray<string>> {
  const slugsByWord: Array<Set<string>> = words.map(() => new Set());
  for (const group of cityNameGroupsOf(country)) {
    for (const name of group.names) {
      for (let start = 0; start + name.length <= words.length; start += 1) {
        if (!name.every((word, index) => words[start + index] === word)) continue;
        for (let index = 0; index < name.length; index += 1) {
          for (const slug of group.slugs) slugsByWord[start + index]?.add(slug);
        }
      }
    }
  }
  return slugsByWord.map((slugs) => [...slugs]);
}
