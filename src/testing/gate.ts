/** A promise the test opens when it chooses: holds a worker call (or anything) where the test wants it. */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
}
