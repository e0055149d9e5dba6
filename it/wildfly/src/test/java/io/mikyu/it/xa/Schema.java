package io.mikyu.it.xa;

import io.mikyu.it.Names;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.sql.SQLException;
import javax.sql.DataSource;

/** Creates the order table when the application is deployed (outside any transaction: DDL commits itself). */
@Singleton
@Startup
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class Schema {

    @Resource(lookup = Names.XA_DATASOURCE)
    private DataSource dataSource;

    @PostConstruct
    void create() {
        try {
            OrderRows.createTable(dataSource);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create the order table", e);
        }
    }
}
