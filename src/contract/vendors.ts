import { Type } from 'typebox';
import { Nullable, Opt, pageQuery, sortOrder, StringEnum, Timestamp, Uuid } from './common.js';

// Vendor schemas (spec 2.5, 4.4). vendor_name is the one required field of a create body; the
// other address fields of the spec's create body are optional (a vendor is often recorded
// before its address is known). Response schemas list every field.

const Text = (maxLength = 255) => Type.Optional(Nullable(Type.String({ maxLength })));

const fields = {
  vendor_name: Type.String({ minLength: 1, maxLength: 255 }),
  company_name: Text(),
  address: Text(),
  address_2: Text(),
  city: Text(),
  state: Text(),
  zip_code: Text(32),
  country: Text(64),
  contact_person_name: Text(),
  contact_email: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 320 }))),
  contact_phone: Text(64),
  internal_notes: Text(5000),
  product_ids: Type.Optional(
    Type.Array(Uuid, {
      maxItems: 1000,
      description: 'Products of the same merchant team. Omitted: links kept; []: all removed; an array: replaces all.',
    }),
  ),
};

export const CreateVendorBody = Type.Object(fields, { additionalProperties: false });
export const UpdateVendorBody = Type.Object({ ...fields, vendor_name: Type.Optional(fields.vendor_name) }, { additionalProperties: false });

export const VendorParams = Type.Object({ vendor_id: Uuid });

export const VendorListQuery = Type.Object(
  {
    ...pageQuery(),
    order_by: Type.Optional(StringEnum(['created_at', 'updated_at'] as const, { default: 'created_at' })),
    order: sortOrder,
  },
  { additionalProperties: false },
);

export const VendorSchema = Type.Object({
  id: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
  vendor_name: Type.String(),
  company_name: Opt(Type.String()),
  address: Opt(Type.String()),
  address_2: Opt(Type.String()),
  city: Opt(Type.String()),
  state: Opt(Type.String()),
  zip_code: Opt(Type.String()),
  country: Opt(Type.String()),
  contact_person_name: Opt(Type.String()),
  contact_email: Opt(Type.String()),
  contact_phone: Opt(Type.String()),
  internal_notes: Opt(Type.String()),
  merchant_team_id: Type.String(),
  merchant_team_name: Opt(Type.String()),
  fulfiller_team_id: Opt(Type.String()),
  fulfiller_team_name: Opt(Type.String()),
  products: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      sku: Opt(Type.String()),
      image_url: Opt(Type.String()),
    }),
  ),
});
