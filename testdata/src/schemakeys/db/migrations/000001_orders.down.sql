DROP TABLE payments;
DROP TABLE events;
DROP TABLE orders;
