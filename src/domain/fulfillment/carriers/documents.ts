import type { Db, TxClient } from '../../../db/types.js';
import { DomainError } from '../../errors.js';
import { asOperation } from '../../../net/deadlines.js';
import { policyFetch, type OutboundPolicy } from '../../carrier-integrations/index.js';
import { deletePackageDocuments, findNewestDocument, insertCarrierDocument } from '../store/carriers.js';

// Documents a carrier platform issues (the label, a commercial invoice) are downloaded at purchase
// and kept in the database, because the platform's URLs expire: label_url is fos's own URL and
// keeps working. A few tens of kilobytes per label.

export interface FetchedDocument {
  kind: 'LABEL' | 'COMMERCIAL_INVOICE';
  format: 'PDF' | 'ZPL';
  content_type: string;
  bytes: Buffer;
  source_url: string;
}

const MAX_BYTES = 10 * 1024 * 1024;

/** Downloads a platform document; a failure is a 502-like refusal (nothing is recorded). */
export async function download(
  url: string,
  kind: FetchedDocument['kind'],
  format: 'PDF' | 'ZPL',
  policy: OutboundPolicy,
): Promise<FetchedDocument> {
  const fetcher = policyFetch(policy);
  let res: Response;
  try {
    res = await asOperation('download', () => fetcher(url));
  } catch {
    throw new DomainError(
      'unavailable',
      `The carrier platform's ${kind === 'LABEL' ? 'label' : 'document'} could not be downloaded; try again.`,
    );
  }
  if (!res.ok) throw new DomainError('unavailable', `The carrier platform's document download answered HTTP ${res.status}; try again.`);
  const bytes = Buffer.from(await res.arrayBuffer());
  if (!bytes.length || bytes.length > MAX_BYTES)
    throw new DomainError('unavailable', 'The carrier platform sent an empty or oversized document.');
  const content_type = format === 'ZPL' ? 'application/x-zpl' : 'application/pdf';
  return { kind, format, content_type, bytes, source_url: url };
}

export async function storeDocuments(tx: TxClient, teamId: string, packageId: string, docs: FetchedDocument[]) {
  if (!docs.length) return;
  // A relabelled package keeps only its current label's documents.
  await deletePackageDocuments(tx, packageId);
  for (const d of docs) {
    await insertCarrierDocument(tx, {
      team_id: teamId,
      package_id: packageId,
      kind: d.kind,
      format: d.format,
      content_type: d.content_type,
      bytes: new Uint8Array(d.bytes),
      source_url: d.source_url,
    });
  }
}

/** The stored document of a package, newest first; null when the label is fos's own. */
export function storedDocument(client: Db['prisma'], teamId: string, packageId: string, kind: FetchedDocument['kind']) {
  return findNewestDocument(client, teamId, packageId, kind);
}
