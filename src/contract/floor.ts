import { Type } from 'typebox';

// The /floor page's own sign-in endpoints (src/server/routes/floor.ts). Not part of the public
// API (hidden from the OpenAPI document): the page is their only client.

export const FloorSignInBody = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
    team_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  },
  { additionalProperties: false },
);

export const FloorRefreshBody = Type.Object(
  { refresh_token: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);

const Tokens = {
  access_token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'seconds' }),
  refresh_token: Type.String(),
};

export const FloorTokensSchema = Type.Object(Tokens);

export const FloorSessionSchema = Type.Object({
  ...Tokens,
  user: Type.Object({ id: Type.String(), email: Type.String(), name: Type.String() }),
  team: Type.Object({ id: Type.String(), name: Type.String() }),
});
