-- The closest title first (lib/catalog/text-match.ts): among matches of equal field scores, a
-- title with fewer words ranks higher, a length normalisation in the spirit of BM25's. "Soy Wax
-- Candle" now ranks above "Everyday Basics Modern Soy Wax Candle" for "soy wax candle" when the
-- words weigh the same in both.
--
-- product_search.title_words: the number of words of the title (of its key form, title_key).
-- A text match's score loses title_words / 1024 (below one field point: titles are at most 200
-- characters), so the sort keys stay (score DESC, rating_count DESC, product_id).
-- search_title_postings.title_words: the same, so that a word's list is read in the order the
-- search ranks (impact DESC, title_words, rating_count DESC, product_id) and a page is still
-- proven from the head of each list.
ALTER TABLE product_search
  ADD COLUMN title_words smallint GENERATED ALWAYS AS (cardinality(string_to_array(title_key, ' '))::smallint) STORED;

CREATE OR REPLACE FUNCTION product_search_postings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO search_title_postings (lexeme, product_id, impact, title_words, rating_count)
    SELECT t.lexeme, n.product_id, search_field_score(t.weights), n.title_words, n.rating_count
    FROM new_rows n, unnest(n.search_vector) t
    WHERE 'A' = ANY(t.weights);
  ELSIF TG_OP = 'DELETE' THEN
    DELETE FROM search_title_postings p USING old_rows o WHERE p.product_id = o.product_id;
  ELSE
    -- Only rows whose document, title or rating count changed (most updates are offer changes).
    -- The DELETE sees the table as before the statement, so it never removes the rows inserted here.
    WITH changed AS (
      SELECT n.product_id, n.search_vector, n.title_words, n.rating_count
      FROM new_rows n JOIN old_rows o ON o.product_id = n.product_id
      WHERE n.search_vector IS DISTINCT FROM o.search_vector OR n.rating_count IS DISTINCT FROM o.rating_count
         OR n.title_words IS DISTINCT FROM o.title_words
    ), gone AS (
      DELETE FROM search_title_postings p USING changed c WHERE p.product_id = c.product_id
    )
    INSERT INTO search_title_postings (lexeme, product_id, impact, title_words, rating_count)
    SELECT t.lexeme, c.product_id, search_field_score(t.weights), c.title_words, c.rating_count
    FROM changed c, unnest(c.search_vector) t
    WHERE 'A' = ANY(t.weights);
  END IF;
  RETURN NULL;
END $$;

-- Rebuilt rather than updated (a million products: about five million rows).
DROP INDEX search_title_postings_rank;
DROP INDEX search_title_postings_product;
TRUNCATE search_title_postings;
ALTER TABLE search_title_postings ADD COLUMN title_words smallint NOT NULL;
INSERT INTO search_title_postings (lexeme, product_id, impact, title_words, rating_count)
SELECT t.lexeme, ps.product_id, search_field_score(t.weights), ps.title_words, ps.rating_count
FROM product_search ps, unnest(ps.search_vector) t
WHERE 'A' = ANY(t.weights);
CREATE INDEX search_title_postings_product ON search_title_postings (product_id);
CREATE INDEX search_title_postings_rank ON search_title_postings (lexeme, impact DESC, title_words, rating_count DESC, product_id);
