package io.mikyu.broker.xa;

import org.h2.jdbcx.JdbcDataSource;

import javax.sql.XAConnection;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The second resource: an H2 file database through its {@code XADataSource} ({@link JdbcDataSource}). It keeps
 * prepared transactions in the file across a {@code kill -9} ({@code recover} lists them after reopening, and
 * {@code commit}/{@code rollback} of a new connection settle them). The database closes with its last connection,
 * so another process may open the file next.
 */
final class H2Db {

    private final JdbcDataSource dataSource = new JdbcDataSource();

    H2Db(Path dir) {
        dataSource.setURL("jdbc:h2:file:" + dir.toAbsolutePath().resolve("app"));
        dataSource.setUser("sa");
        dataSource.setPassword("");
    }

    JdbcDataSource dataSource() {
        return dataSource;
    }

    /** Creates the table {@code orders(id, note)} unless it exists. */
    H2Db createTable() throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute("create table if not exists orders(id varchar(64) primary key, note varchar(200))");
        }
        return this;
    }

    static void insert(Connection c, String id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("insert into orders(id, note) values (?, ?)")) {
            ps.setString(1, id);
            ps.setString(2, "order " + id);
            ps.executeUpdate();
        }
    }

    /** How many committed rows have this id (0 or 1): what another connection sees. */
    int rows(String id) throws SQLException {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("select count(*) from orders where id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    /** Every committed id, in order. */
    List<String> ids() throws SQLException {
        List<String> ids = new ArrayList<>();
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select id from orders order by id")) {
            while (rs.next()) {
                ids.add(rs.getString(1));
            }
        }
        return ids;
    }

    /** The transactions H2 holds prepared (in doubt), as text ({@link Xids#text(Xid)}). */
    List<String> inDoubt() throws SQLException, XAException {
        XAConnection xc = dataSource.getXAConnection();
        try {
            return Xids.texts(xc.getXAResource().recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN));
        } finally {
            xc.close();
        }
    }
}
