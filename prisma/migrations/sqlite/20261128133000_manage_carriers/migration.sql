-- MANAGE_CARRIERS (issue 37, docs/access.md): carrier integrations are managed with a permission
-- of their own. ADMIN keys and members hold every permission already; custom roles with admin
-- rights (those holding MANAGE_API_KEYS) get it too, so nobody who managed keys loses carriers.
-- The list stays sorted and without duplicates, as the roles API keeps it.
UPDATE "roles"
SET "permissions" = (
  SELECT json_group_array("value") FROM (
    SELECT DISTINCT j."value" FROM json_each(json_insert("roles"."permissions", '$[#]', 'MANAGE_CARRIERS')) j ORDER BY j."value"
  )
)
WHERE json_valid("permissions") AND json_type("permissions") = 'array'
  AND EXISTS (SELECT 1 FROM json_each("roles"."permissions") j WHERE j."value" = 'MANAGE_API_KEYS')
  AND NOT EXISTS (SELECT 1 FROM json_each("roles"."permissions") j WHERE j."value" = 'MANAGE_CARRIERS');
