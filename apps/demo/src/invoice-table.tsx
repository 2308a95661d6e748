import type { Invoice } from '@kestrel/testing';

const money = (currency: string, amount: number) =>
  new Intl.NumberFormat('en', { style: 'currency', currency }).format(amount);

/** The app's own rendering of a typed invoice payload. */
export function InvoiceTable({ invoice }: { readonly invoice: Invoice }) {
  return (
    <table className="invoice" data-testid="invoice-table">
      <caption>
        Invoice {invoice.invoiceNumber} from {invoice.vendor}
      </caption>
      <thead>
        <tr>
          <th scope="col">Description</th>
          <th scope="col">Quantity</th>
          <th scope="col">Amount</th>
        </tr>
      </thead>
      <tbody>
        {invoice.lines.map((line) => (
          <tr key={line.description}>
            <td>{line.description}</td>
            <td>{line.quantity}</td>
            <td>{money(invoice.currency, line.amount)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row" colSpan={2}>
            Total
          </th>
          <td data-testid="invoice-total">{money(invoice.currency, invoice.total)}</td>
        </tr>
      </tfoot>
    </table>
  );
}
