/** The fields an import can fill, per target, and the built-in column mappings (presets). */
export const TARGETS = ['animals', 'people'] as const;
export type Target = (typeof TARGETS)[number];

export const FIELDS: Record<Target, readonly string[]> = {
  animals: ['name', 'public_name', 'species', 'breed', 'status', 'intake_date', 'date_of_birth', 'sex', 'microchip_number', 'notes'],
  people: [
    'first_name',
    'last_name',
    'email',
    'phone',
    'address_line1',
    'address_line2',
    'city',
    'state',
    'postal_code',
    'country',
    'roles',
    'tags',
    'notes',
  ],
};

export interface Preset {
  name: string;
  description: string;
  /** Source column header (matched case- and space-insensitively) → field. */
  columns: Record<string, string>;
}

export const PRESETS: Record<Target, Preset[]> = {
  animals: [
    {
      name: 'spreadsheet',
      description: 'A common spreadsheet: Name, Species, Breed, Status, Intake Date, Date of Birth, Sex, Microchip, Notes.',
      columns: {
        Name: 'name',
        'Public Name': 'public_name',
        Species: 'species',
        Breed: 'breed',
        Status: 'status',
        'Intake Date': 'intake_date',
        'Date of Birth': 'date_of_birth',
        DOB: 'date_of_birth',
        Sex: 'sex',
        Microchip: 'microchip_number',
        'Microchip Number': 'microchip_number',
        Notes: 'notes',
      },
    },
    {
      name: 'asm',
      description: "Animal Shelter Manager's animal export (ANIMALNAME, SPECIESNAME, BREEDNAME, SEXNAME, DATEOFBIRTH, DATEBROUGHTIN, …).",
      columns: {
        ANIMALNAME: 'name',
        SPECIESNAME: 'species',
        BREEDNAME: 'breed',
        SEXNAME: 'sex',
        DATEOFBIRTH: 'date_of_birth',
        DATEBROUGHTIN: 'intake_date',
        IDENTICHIPNUMBER: 'microchip_number',
        ANIMALCOMMENTS: 'notes',
      },
    },
  ],
  people: [
    {
      name: 'spreadsheet',
      description: 'A common spreadsheet: First Name, Last Name, Email, Phone, Address, City, State, Postcode, Country, Tags, Notes.',
      columns: {
        'First Name': 'first_name',
        'Last Name': 'last_name',
        Email: 'email',
        'Email Address': 'email',
        Phone: 'phone',
        Address: 'address_line1',
        'Address Line 1': 'address_line1',
        'Address Line 2': 'address_line2',
        City: 'city',
        Town: 'city',
        State: 'state',
        County: 'state',
        Postcode: 'postal_code',
        'Postal Code': 'postal_code',
        Zip: 'postal_code',
        Country: 'country',
        Tags: 'tags',
        Roles: 'roles',
        Notes: 'notes',
      },
    },
    {
      name: 'asm',
      description: "Animal Shelter Manager's person export (OWNERFORENAMES, OWNERSURNAME, EMAILADDRESS, MOBILETELEPHONE, OWNERADDRESS, …).",
      columns: {
        OWNERFORENAMES: 'first_name',
        OWNERSURNAME: 'last_name',
        EMAILADDRESS: 'email',
        MOBILETELEPHONE: 'phone',
        HOMETELEPHONE: 'phone',
        OWNERADDRESS: 'address_line1',
        OWNERTOWN: 'city',
        OWNERCOUNTY: 'state',
        OWNERPOSTCODE: 'postal_code',
        OWNERCOUNTRY: 'country',
        COMMENTS: 'notes',
      },
    },
  ],
};

export const headerKey = (h: string) => h.toLowerCase().replace(/[\s_-]+/g, '');
