// BigCommerce V2 addresses carry the state's name ("Texas"), not its code; fos's address check
// wants the two-letter code for US and Canadian addresses (src/domain/orders/address.ts). Names
// of other countries' regions pass unchanged.

const US =
  'AL Alabama|AK Alaska|AZ Arizona|AR Arkansas|CA California|CO Colorado|CT Connecticut|DE Delaware|DC District of Columbia|' +
  'FL Florida|GA Georgia|HI Hawaii|ID Idaho|IL Illinois|IN Indiana|IA Iowa|KS Kansas|KY Kentucky|LA Louisiana|ME Maine|' +
  'MD Maryland|MA Massachusetts|MI Michigan|MN Minnesota|MS Mississippi|MO Missouri|MT Montana|NE Nebraska|NV Nevada|' +
  'NH New Hampshire|NJ New Jersey|NM New Mexico|NY New York|NC North Carolina|ND North Dakota|OH Ohio|OK Oklahoma|OR Oregon|' +
  'PA Pennsylvania|RI Rhode Island|SC South Carolina|SD South Dakota|TN Tennessee|TX Texas|UT Utah|VT Vermont|VA Virginia|' +
  'WA Washington|WV West Virginia|WI Wisconsin|WY Wyoming|AS American Samoa|GU Guam|MP Northern Mariana Islands|' +
  'PR Puerto Rico|VI Virgin Islands|AA Armed Forces Americas|AE Armed Forces Europe|AP Armed Forces Pacific';
const CA =
  'AB Alberta|BC British Columbia|MB Manitoba|NB New Brunswick|NL Newfoundland and Labrador|NS Nova Scotia|' +
  'NT Northwest Territories|NU Nunavut|ON Ontario|PE Prince Edward Island|QC Quebec|SK Saskatchewan|YT Yukon';

const table = (s: string) => new Map(s.split('|').map((e) => [e.slice(3).toLowerCase(), e.slice(0, 2)]));
const CODES: Record<string, Map<string, string>> = { US: table(US), CA: table(CA) };

/** The region's code where fos needs one (US, CA), else the name as given. */
export function regionCode(country: string | null, state: string | null): string | null {
  if (!state || !country) return state;
  return CODES[country.toUpperCase()]?.get(state.trim().toLowerCase()) ?? state;
}
