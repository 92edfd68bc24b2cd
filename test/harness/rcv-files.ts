/**
 * The SII's Registro de Compras y Ventas files ("Descargar detalles", phase2-anchors §7), built
 * for tests and benchmarks: `;`-separated, the SII's header rows (purchases 27 columns, sales 43),
 * dates DD/MM/YYYY, amounts plain integers, credit notes with positive amounts.
 */
export const PURCHASES_HEADER =
  'Nro;Tipo Doc;Tipo Compra;RUT Proveedor;Razon Social;Folio;Fecha Docto;Fecha Recepcion;Fecha Acuse;Monto Exento;Monto Neto;Monto IVA Recuperable;Monto Iva No Recuperable;Codigo IVA No Rec.;Monto Total;Monto Neto Activo Fijo;IVA Activo Fijo;IVA uso Comun;Impto. Sin Derecho a Credito;IVA No Retenido;Tabacos Puros;Tabacos Cigarrillos;Tabacos Elaborados;NCE o NDE sobre Fact. de Compra;Codigo Otro Impuesto;Valor Otro Impuesto;Tasa Otro Impuesto';

export const SALES_HEADER =
  'Nro;Tipo Doc;Tipo Venta;Rut cliente;Razon Social;Folio;Fecha Docto;Fecha Recepcion;Fecha Acuse Recibo;Fecha Reclamo;Monto Exento;Monto Neto;Monto IVA;Monto total;IVA Retenido Total;IVA Retenido Parcial;IVA no retenido;IVA propio;IVA Terceros;RUT Emisor Liquid. Factura;Neto Comision Liquid. Factura;Exento Comision Liquid. Factura;IVA Comision Liquid. Factura;IVA fuera de plazo;Tipo Docto. Referencia;Folio Docto. Referencia;Num. Ident. Receptor Extranjero;Nacionalidad Receptor Extranjero;Credito empresa constructora;Impto. Zona Franca (Ley 18211);Garantia Dep. Envases;Indicador Venta sin Costo;Indicador Servicio Periodico;Monto No facturable;Total Monto Periodo;Venta Pasajes Transporte Nacional;Venta Pasajes Transporte Internacional;Numero Interno;Codigo Sucursal;NCE o NDE sobre Fact. de Compra;Codigo Otro Imp.;Valor Otro Imp.;Tasa Otro Imp.';

export interface RcvDocument {
  type: number | string;
  rut: string;
  name: string;
  folio: number | string;
  /** DD/MM/YYYY as the SII writes it. */
  date: string;
  exempt?: number | string;
  net?: number | string;
  tax?: number | string;
  total: number | string;
}

const text = (value: number | string | undefined) => (value === undefined ? '0' : String(value));

/** A purchases row (27 columns) numbered `nro`. */
export function purchasesRow(nro: number, d: RcvDocument): string {
  return [nro, d.type, 'Del Giro', d.rut, d.name, d.folio, d.date, '05/07/2026 10:11:12', '', text(d.exempt), text(d.net), text(d.tax), '0', '', text(d.total), '0', '0', '0', '0', '0', '0', '0', '0', '0', '', '', ''].join(';');
}

/** A sales row (43 columns) numbered `nro`. */
export function salesRow(nro: number, d: RcvDocument): string {
  const tail = Array.from({ length: 29 }, () => '');
  return [nro, d.type, 'Del Giro', d.rut, d.name, d.folio, d.date, '05/07/2026 10:11:12', '', '', text(d.exempt), text(d.net), text(d.tax), text(d.total), ...tail].join(';');
}

/** A whole file: the header and one row per document, CRLF-terminated, as text. */
export function rcvFile(direction: 'sales' | 'purchases', documents: RcvDocument[]): string {
  const row = direction === 'sales' ? salesRow : purchasesRow;
  return [direction === 'sales' ? SALES_HEADER : PURCHASES_HEADER, ...documents.map((d, i) => row(i + 1, d))].join('\r\n') + '\r\n';
}
