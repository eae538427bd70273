"""Each version of the tables' database schema, oldest first."""
