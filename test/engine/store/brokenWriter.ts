// A quote writer thread that cannot load (quoteCommitThread.test.ts): it throws before it hears anything.
throw new Error('this writer thread cannot start')
