-- Text relevance by the fields a word occurs in (lib/catalog/text-match.ts).
--
-- A word of the query now weighs, in a product, the sum of the weights of the fields it occurs
-- in: title 10, brand 4, category names 2, description and attributes 1 (0 to 17), where it was
-- ts_rank (which also counts how often and where). The score of a query of several words is the
-- sum over its words, so a page can be proven from the head of each word's postings list; under
-- ts_rank, whose several-word form weighs how close the words stand, it could not.
--
-- search_title_postings.impact is now that field score (10 to 17: every row's word is in the
-- title), a smallint, and the postings are rebuilt. search_rank_weights() is no longer used.

-- The field score of a lexeme from its position weights in a tsvector (unnest(tsvector).weights).
CREATE FUNCTION search_field_score(weights text[]) RETURNS smallint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (10 * ('A' = ANY(weights))::int + 4 * ('B' = ANY(weights))::int
          + 2 * ('C' = ANY(weights))::int + ('D' = ANY(weights))::int)::smallint
$$;

CREATE OR REPLACE FUNCTION product_search_postings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO search_title_postings (lexeme, product_id, impact, rating_count)
    SELECT t.lexeme, n.product_id, search_field_score(t.weights), n.rating_count
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
    SELECT t.lexeme, c.product_id, search_field_score(t.weights), c.rating_count
    FROM changed c, unnest(c.search_vector) t
    WHERE 'A' = ANY(t.weights);
  END IF;
  RETURN NULL;
END $$;

DROP FUNCTION search_rank_weights();

DROP INDEX search_title_postings_rank;
DROP INDEX search_title_postings_product;
TRUNCATE search_title_postings;
ALTER TABLE search_title_postings ALTER COLUMN impact TYPE smallint;
INSERT INTO search_title_postings (lexeme, product_id, impact, rating_count)
SELECT t.lexeme, ps.product_id, search_field_score(t.weights), ps.rating_count
FROM product_search ps, unnest(ps.search_vector) t
WHERE 'A' = ANY(t.weights);
CREATE INDEX search_title_postings_rank ON search_title_postings (lexeme, impact DESC, rating_count DESC, product_id);
CREATE INDEX search_title_postings_product ON search_title_postings (product_id);
