-- The schema of package schemaconflicts, as a plain schema.sql (sqlc's schema file).
CREATE TABLE accounts (
  id bigserial PRIMARY KEY,
  tenant_id bigint NOT NULL,
  email text NOT NULL,
  handle text,
  deleted_at timestamptz,
  CONSTRAINT accounts_tenant_email_key UNIQUE (tenant_id, email)
);

CREATE UNIQUE INDEX accounts_handle_live ON accounts (lower(handle)) WHERE deleted_at IS NULL;

CREATE TABLE bookings (
  id uuid PRIMARY KEY,
  room int NOT NULL,
  during tstzrange NOT NULL,
  CONSTRAINT bookings_no_overlap EXCLUDE USING gist (room WITH =, during WITH &&)
);
