"""The spreadsheet downloads (CSV and XLSX) of any table, escaped so that no spreadsheet
runs a cell as a formula."""

import io

from django_tables2.export import TableExport
from tablib import Dataset

# The first character of every CSV download (U+FEFF, written as the bytes EF BB BF).
BYTE_ORDER_MARK = "\ufeff"

# Characters that make a spreadsheet read a cell as a formula (OWASP "CSV injection").
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


class SpreadsheetExport(TableExport):
    """django-tables2's export that no spreadsheet runs as a formula: in CSV a text cell
    that starts like a formula gets a leading apostrophe (OWASP's advice); in XLSX every
    text cell is written as text, exactly as it is ("=Team" stays the text "=Team")."""

    def table_to_dataset(self, table, exclude_columns, dataset_kwargs=None):
        dataset = super().table_to_dataset(table, exclude_columns, dataset_kwargs)
        if self.format != self.CSV:
            return dataset
        safe = Dataset(headers=dataset.headers, title=dataset.title)
        for row in dataset:
            safe.append([f"'{value}" if isinstance(value, str)
                         and value.startswith(_FORMULA_START) else value for value in row])
        return safe

    def export(self):
        if self.format == self.CSV:
            # UTF-8 with a byte-order mark: Excel on Windows reads a CSV without one in the
            # machine's ANSI code page and shows Chinese names as mojibake. Python reads it
            # back with encoding="utf-8-sig", as the team import does.
            return BYTE_ORDER_MARK + super().export()
        if self.format != self.XLSX:
            return super().export()
        from openpyxl import Workbook
        from openpyxl.cell import WriteOnlyCell
        from openpyxl.styles import Font

        # Written row by row (openpyxl's write-only mode: a download of 1,024 players'
        # 19,000 cells is not kept as a grid of cell objects first).
        book = Workbook(write_only=True)
        sheet = book.create_sheet((self.dataset.title or "Export")[:31])
        sheet.freeze_panes = "A2"
        bold = Font(bold=True)
        for row_number, row in enumerate([self.dataset.headers, *self.dataset], 1):
            cells = []
            for value in row:
                if isinstance(value, str) or row_number == 1:
                    cell = WriteOnlyCell(sheet, value)
                    if isinstance(value, str):
                        cell.data_type = "s"  # never a formula, whatever it starts with
                        cell.quotePrefix = value.startswith("=")
                    if row_number == 1:
                        cell.font = bold
                    value = cell
                cells.append(value)
            sheet.append(cells)
        out = io.BytesIO()
        book.save(out)
        return out.getvalue()
