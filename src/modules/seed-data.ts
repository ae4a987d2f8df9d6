/** The sample records the areas' seeders share, declared by the areas (the platform names none). */
declare module '../platform/context.ts' {
  interface SeedData {
    people: { id: string; first_name: string; last_name: string; email: string; roles: string[] }[];
    animals: { id: string; name: string; species: string; status: string }[];
    [more: string]: unknown;
  }
}
export {};
