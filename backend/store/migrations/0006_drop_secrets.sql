-- The encrypted secrets table of 0001 was never used: credentials live in
-- the OS keyring (or its encrypted file) and the environment, never in the
-- database.
DROP TABLE IF EXISTS secrets;
