import type { FieldSpec } from '../../shared/flags.js';
import { resourcePath } from '../../shared/resource.js';

export const VENDOR_FIELDS: FieldSpec[] = [
  { key: 'vendor_name', description: 'vendor name', required: true },
  { key: 'company_name', description: 'company name' },
  { key: 'address', description: 'street address' },
  { key: 'address_2', description: 'address line 2' },
  { key: 'city', description: 'city' },
  { key: 'state', description: 'state or region' },
  { key: 'zip_code', description: 'postal code' },
  { key: 'country', description: 'country code' },
  { key: 'contact_person_name', description: 'contact name' },
  { key: 'contact_email', description: 'contact e-mail' },
  { key: 'contact_phone', description: 'contact phone' },
  { key: 'internal_notes', description: 'notes for your team' },
  { key: 'product_ids', flag: '--product', arg: 'id,…', type: 'list', description: 'linked products (replaces the links on update)' },
];

export const vendorPath = (id?: string) => resourcePath('/merchant/vendors', id);
