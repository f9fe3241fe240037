-- MANAGE_CARRIERS (issue 37, docs/access.md): carrier integrations are managed with a permission
-- of their own. ADMIN keys and members hold every permission already; custom roles with admin
-- rights (those holding MANAGE_API_KEYS) get it too, so nobody who managed keys loses carriers.
-- The list stays sorted and without duplicates, as the roles API keeps it.
UPDATE "roles"
SET "permissions" = (
  SELECT jsonb_agg(DISTINCT v ORDER BY v) FROM jsonb_array_elements_text("roles"."permissions" || '["MANAGE_CARRIERS"]'::jsonb) AS t(v)
)
WHERE jsonb_typeof("permissions") = 'array'
  AND "permissions" @> '["MANAGE_API_KEYS"]'::jsonb
  AND NOT "permissions" @> '["MANAGE_CARRIERS"]'::jsonb;
