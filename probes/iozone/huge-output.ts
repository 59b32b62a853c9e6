// An iozone output of the size that froze the server before parsing moved off the request thread;
// for the unit and end-to-end tests of the parse limits.

/** An iozone auto table with `rows` rows of four tests each (8 MB and 720,000 measurements at 180,000). */
export function longIozoneOutput(rows: number): string {
  const head = [
    "\tIozone: Performance Test of File I/O",
    "\tCommand line used: iozone -a -i 0 -i 1",
    "\tOutput is in kBytes/sec",
    "                                                              random    random     bkwd    record    stride",
    "              kB  reclen    write  rewrite    read    reread    read     write     read   rewrite      read   fwrite frewrite    fread  freread",
  ];
  const body: string[] = [];
  for (let i = 0; i < rows; i++) body.push(`${64 + i * 4} 4 1527924 4242086 5965386 3437142`);
  return `${head.join("\n")}\n${body.join("\n")}\n\niozone test complete.\n`;
}
