"""Pages: each entry's results, its page spec and HTML, and the bank's other pages and indexes."""
