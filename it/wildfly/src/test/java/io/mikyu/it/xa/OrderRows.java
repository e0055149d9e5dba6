package io.mikyu.it.xa;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/** The database side of the XA scenarios: one table of order rows, each holding the body of its message. */
public final class OrderRows {

    private OrderRows() {
    }

    static void createTable(DataSource dataSource) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS orders (id IDENTITY PRIMARY KEY, body VARCHAR(200) NOT NULL)");
        }
    }

    /** Inserts a row on the caller's connection (enlisted in the caller's transaction); a null body fails. */
    static void insert(Connection connection, String body) throws SQLException {
        try (PreparedStatement s = connection.prepareStatement("INSERT INTO orders (body) VALUES (?)")) {
            s.setString(1, body);
            s.executeUpdate();
        }
    }

    static int count(DataSource dataSource, String body) throws SQLException {
        try (Connection c = dataSource.getConnection();
             PreparedStatement s = c.prepareStatement("SELECT COUNT(*) FROM orders WHERE body = ?")) {
            s.setString(1, body);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getInt(1);
            }
        }
    }
}
