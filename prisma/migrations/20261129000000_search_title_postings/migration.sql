-- A text search's page without ranking every product that matches (lib/catalog/text-match.ts).
--
-- search_title_postings holds one row per searchable product and word (lexeme) of its title, with
-- `impact`: ts_rank of the product's document for that one word, with the field weights the
-- search ranks by. Read by (lexeme, impact DESC, rating_count DESC, product_id), a word's
-- products come in the order a one-word query ranks them among titles containing the word, so
-- a page needs only its first rows; before, every product containing the word was read and
-- ranked (at 1,000,000 products, 12,000 rows and 90 ms for "wireless headphones").
-- Kept by the statement triggers on product_search, in the same transaction as the row.
CREATE TABLE search_title_postings (
    lexeme text NOT NULL,
    product_id uuid NOT NULL,
    impact real NOT NULL,
    rating_count integer NOT NULL
);
CREATE INDEX search_title_postings_rank ON search_title_postings (lexeme, impact DESC, rating_count DESC, product_id);
CREATE INDEX search_title_postings_product ON search_title_postings (product_id);

-- A tsquery of exactly one lexeme (already normalised: no parsing, stemming or stop words).
CREATE FUNCTION lexeme_tsquery(lexeme text) RETURNS tsquery LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ('''' || replace(replace(lexeme, '\', '\\'), '''', '''''') || '''')::tsquery
$$;

-- The field weights of the search's ranking, {D, C, B, A} (lib/catalog/text-match.ts WEIGHTS).
CREATE FUNCTION search_rank_weights() RETURNS float4[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT '{0.1, 0.2, 0.4, 1.0}'::float4[]
$$;

CREATE FUNCTION product_search_postings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO search_title_postings (lexeme, product_id, impact, rating_count)
    SELECT t.lexeme, n.product_id, ts_rank(search_rank_weights(), n.search_vector, lexeme_tsquery(t.lexeme)), n.rating_count
    FROM new_rows n, unnest(n.search_vector) t
    WHERE 'A' = ANY(t.weights);
  ELSIF TG_OP = 'DELETE' THEN
    DELETE FROM search_title_postings p USING old_rows o WHERE p.product_id = o.product_id;
  ELSE
    -- Only rows whose document or rating count changed (most updates are offer changes). The
    -- DELETE sees the table as before the statement, so it never removes the rows inserted here.
    WITH changed AS (
      SELECT n.product_id, n.search_vector, n.rating_count
      FROM new_rows n JOIN old_rows o ON o.product_id = n.product_id
      WHERE n.search_vector IS DISTINCT FROM o.search_vector OR n.rating_count IS DISTINCT FROM o.rating_count
    ), gone AS (
      DELETE FROM search_title_postings p USING changed c WHERE p.product_id = c.product_id
    )
    INSERT INTO search_title_postings (lexeme, product_id, impact, rating_count)
    SELECT t.lexeme, c.product_id, ts_rank(search_rank_weights(), c.search_vector, lexeme_tsquery(t.lexeme)), c.rating_count
    FROM changed c, unnest(c.search_vector) t
    WHERE 'A' = ANY(t.weights);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER product_search_postings_insert AFTER INSERT ON product_search
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_search_postings();
CREATE TRIGGER product_search_postings_update AFTER UPDATE ON product_search
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_search_postings();
CREATE TRIGGER product_search_postings_delete AFTER DELETE ON product_search
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION product_search_postings();

-- TRUNCATE product_search (the seed): the postings go with it.
CREATE OR REPLACE FUNCTION product_search_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE facet_pending, facet_bitmaps, facet_members, facet_member_pairs, search_title_postings;
  PERFORM setval('facet_ordinal_seq', 0, false);
  PERFORM pg_notify('catalog_changes', 'search');
  RETURN NULL;
END $$;

-- A title that equals a phrase of the query or begins with it ranks first: found by this index.
CREATE INDEX product_search_title_key ON product_search (title_key COLLATE "C");

INSERT INTO search_title_postings (lexeme, product_id, impact, rating_count)
SELECT t.lexeme, ps.product_id, ts_rank(search_rank_weights(), ps.search_vector, lexeme_tsquery(t.lexeme)), ps.rating_count
FROM product_search ps, unnest(ps.search_vector) t
WHERE 'A' = ANY(t.weights);
