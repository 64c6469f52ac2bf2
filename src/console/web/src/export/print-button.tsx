/**
 * The browser's print dialog gives the PDF; the print stylesheet shapes it. Unavailable
 * while there is nothing whole to print, by aria-disabled rather than disabled: a button
 * disabled under the keyboard's focus drops it to the page's body, which is where a broker
 * tabbing out of the retention field (the change that starts the loading) landed (issue 50).
 */
export function PrintButton({ disabled }: { disabled: boolean }) {
  return (
    <button
      type="button"
      class="button no-print"
      onClick={() => {
        if (!disabled) window.print();
      }}
      aria-disabled={disabled}
      data-testid="print-report"
    >
      Print report
    </button>
  );
}
