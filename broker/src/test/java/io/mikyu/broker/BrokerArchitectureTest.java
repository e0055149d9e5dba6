package io.mikyu.broker;

import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.junit.LocationProvider;
import com.tngtech.archunit.lang.ArchRule;
import io.mikyu.broker.server.BrokerServer;

import java.util.Set;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The broker's and CLI's layering (docs/architecture.md, "Layering"): no package cycle, the engine's API only, and
 * no JMS provider: remote consumers' selectors are compiled by the selector module.
 */
@AnalyzeClasses(locations = BrokerArchitectureTest.ProductionClasses.class)
class BrokerArchitectureTest {

    @ArchTest
    static final ArchRule packagesFormNoCycle = slices().matching("io.mikyu.(**)").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule usesNoEngineInternals = noClasses().should().dependOnClassesThat()
            .resideInAPackage("io.mikyu.engine.internal..");

    @ArchTest
    static final ArchRule usesNoJmsProvider = noClasses().should().dependOnClassesThat()
            .resideInAnyPackage("io.mikyu.jms..", "jakarta.jms..");

    /** This module's production classes: the directory (or jar) that holds {@link BrokerServer}, and nothing else. */
    static final class ProductionClasses implements LocationProvider {

        @Override
        public Set<Location> get(Class<?> testClass) {
            return Set.of(Location.of(BrokerServer.class.getProtectionDomain().getCodeSource().getLocation()));
        }
    }
}
