package io.mikyu.jca;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The resource adapter's layering (docs/architecture.md, "Layering"): no engine internals. Its packages are not free
 * of cycles yet (the adapter starts the inbound side, whose activation specs and the outbound side read the
 * adapter's settings), so that rule is not asserted here.
 */
@AnalyzeClasses(packages = "io.mikyu.jca", importOptions = ImportOption.DoNotIncludeTests.class)
class ResourceAdapterArchitectureTest {

    @ArchTest
    static final ArchRule usesNoEngineInternals = noClasses().should().dependOnClassesThat()
            .resideInAPackage("io.mikyu.engine.internal..");
}
