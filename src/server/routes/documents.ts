import type { FastifyReply } from 'fastify';

// How every rendered document is answered (labels, packing slips, manifests): its type, shown
// inline under a file name, never cached (it is rendered from the data as it is now, and private
// to the team). Also the OpenAPI response of such a route.

export function sendDocument(reply: FastifyReply, bytes: Uint8Array | string, filename: string) {
  const type = filename.endsWith('.zpl') ? 'application/x-zpl; charset=utf-8' : 'application/pdf';
  return reply
    .type(type)
    .header('content-disposition', `inline; filename="${filename}"`)
    .header('cache-control', 'private, no-store')
    .send(typeof bytes === 'string' ? bytes : Buffer.from(bytes));
}

export const PDF_RESPONSE = {
  200: { description: 'A PDF document', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } },
};
