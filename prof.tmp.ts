import { exactAmounts } from './libs/shared-kernel/src';
import { purchaseSalesRegister, PeriodDocument } from './src/modules/tax/domain/purchase-sales-register';
const docs: PeriodDocument[] = Array.from({ length: 20000 }, (_, g) => ({ invoiceId: `00000000-0000-0000-0000-${String(g).padStart(12, '0')}`, dteType: g % 10 < 8 ? 33 : 61, folio: String(6000000 + g), partnerId: `p${g % 500}`, issueDate: '2026-06-15', currency: 'CLP', exchangeRate: null, exemptAmount: 0n, netAmount: BigInt(10000 + g), taxAmount: 1900n, totalAmount: BigInt(11900 + g) }));
const partners = new Map(Array.from({ length: 500 }, (_, i) => [`p${i}`, { name: `Cliente ${i}`, taxId: '76100000-1' }]));
for (let k = 0; k < 3; k++) {
  let t = performance.now();
  const r = purchaseSalesRegister(docs, partners, { exponentOf: () => 0 });
  const a = performance.now() - t; t = performance.now();
  const e = exactAmounts({ ...r, rows: r.rows.map((x) => ({ ...x, folio: Number(x.folio) })) });
  const b = performance.now() - t; t = performance.now();
  const j = JSON.stringify(e);
  const c = performance.now() - t;
  console.log(`register ${a.toFixed(0)} exactAmounts ${b.toFixed(0)} json ${c.toFixed(0)} (${j.length} bytes)`);
}
