/** The browser's print dialog gives the one-page PDF; the print stylesheet shapes it. */
export function PrintButton({ disabled }: { disabled: boolean }) {
  return (
    <button
      type="button"
      class="button no-print"
      onClick={() => window.print()}
      disabled={disabled}
      data-testid="print-report"
    >
      Print report
    </button>
  );
}
