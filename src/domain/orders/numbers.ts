import type { TxClient } from '../../db/types.js';
import { searchKey } from '../search.js';
import { isUniqueViolation } from '../../db/client.js';
import { conflict } from '../errors.js';
import { FIRST_ORDER_SEQ } from '../../contract/orders-enums.js';
import { savepoint } from './store/common.js';
import { findMaxOrderSeq, setOrderNumberColumns } from './store/numbers.js';

// Order numbers are unique per fulfiller team (unique index). Generated ones continue the
// team's sequence ("#1001", "#1002", …). The number is the last write of a conversion and runs
// in a savepoint: when a concurrent conversion committed the same number first (PostgreSQL
// makes the loser wait on the index, then fails it), only this step is retried with the next
// number — the rest of the conversion stands.

/** "#1042" / "1042" -> 1042, for numeric sort and so the generator skips past requested numbers. */
export const seqOf = (orderNumber: string) => {
  const m = /^#?(\d{1,9})$/.exec(orderNumber);
  return m ? Number(m[1]) : null;
};

/**
 * The columns derived from an order number. order_by=order_number sorts numeric numbers first, by
 * value, then the others by text, in either direction: class 0/1, then a key that sorts right as
 * text (the number zero-padded to 10 digits, else the search key), served by one index per direction.
 */
export function numberColumns(orderNumber: string) {
  const key = searchKey(orderNumber.replace(/^#/, ''));
  const seq = seqOf(orderNumber);
  return {
    order_number: orderNumber,
    order_number_key: key,
    order_seq: seq,
    order_number_class: seq === null ? 1 : 0,
    order_sort_key: seq === null ? key : String(seq).padStart(10, '0'),
  };
}

/** A unique placeholder while the conversion runs; never visible outside its transaction. */
export const placeholderNumber = (draftId: string) => ({
  order_number: `~${draftId}`,
  order_number_key: '~',
  order_seq: null,
  order_number_class: 1,
  order_sort_key: '~',
});

export async function assignOrderNumber(tx: TxClient, orderId: string, fulfillerTeamId: string, requested: string | null): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt++) {
    let orderNumber = requested;
    if (!orderNumber) {
      const max = await findMaxOrderSeq(tx, fulfillerTeamId);
      orderNumber = `#${Math.max(FIRST_ORDER_SEQ, (max ?? 0) + 1)}`;
    }
    await savepoint(tx, 'SAVEPOINT');
    try {
      await setOrderNumberColumns(tx, orderId, numberColumns(orderNumber));
      await savepoint(tx, 'RELEASE SAVEPOINT');
      return orderNumber;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      await savepoint(tx, 'ROLLBACK TO SAVEPOINT');
      if (requested) throw conflict(`Order number ${requested} is already used by another order of this team.`);
    }
  }
  throw conflict('Could not give the order a number under heavy concurrent load; retry the conversion.');
}
