#include "importers/registry.h"

#include "importers/ibdiagnet_db_csv_importer.h"
#include "importers/ibdiagnet_cables_importer.h"
#include "importers/ibdiagnet_net_dump_ext_importer.h"
#include "importers/ibdiagnet_fdbs_importer.h"
#include "importers/ibdiagnet_pm_importer.h"
#include "importers/ibswinfo_importer.h"
#include "importers/iblinkinfo_importer.h"
#include "importers/ibqueryerrors_importer.h"
#include "importers/ibroute_importer.h"
#include "importers/ibnetdiscover_importer.h"
#include "importers/ibnetdiscover_ports_importer.h"
#include "importers/ethtool_importer.h"
#include "importers/lldp_json_importer.h"
#include "importers/lldp_keyvalue_importer.h"
#include "importers/netq_topology_importer.h"
#include "importers/long_csv_importer.h"
#include "importers/nccl_log_importer.h"
#include "importers/nccl_tests_importer.h"
#include "importers/job_csv_importer.h"
#include "importers/lst_importer.h"
#include "importers/ibdm_topo_importer.h"
#include "importers/ibsim_net_importer.h"
#include "importers/perfquery_importer.h"
#include "importers/perftest_importer.h"
#include "importers/pingmesh_csv_importer.h"
#include "importers/prometheus_json_importer.h"
#include "importers/prometheus_text_importer.h"
#include "importers/sonic_pfc_importer.h"
#include "importers/ufm_telemetry_importer.h"
#include "importers/sonic_portstat_importer.h"
#include "importers/rdma_stat_importer.h"

namespace fabscope {

ImporterRegistry::ImporterRegistry() {
    importers_.push_back(std::make_unique<IbnetdiscoverImporter>());
    importers_.push_back(std::make_unique<LongCsvImporter>());
    importers_.push_back(std::make_unique<IblinkinfoImporter>());
    importers_.push_back(std::make_unique<IbnetdiscoverPortsImporter>());
    importers_.push_back(std::make_unique<PerfqueryImporter>());
    importers_.push_back(std::make_unique<PrometheusTextImporter>());
    importers_.push_back(std::make_unique<PrometheusJsonImporter>());
    importers_.push_back(std::make_unique<IbqueryerrorsImporter>());
    importers_.push_back(std::make_unique<IbrouteImporter>());
    importers_.push_back(std::make_unique<LstImporter>());
    importers_.push_back(std::make_unique<IbdmTopoImporter>());
    importers_.push_back(std::make_unique<IbsimNetImporter>());
    importers_.push_back(std::make_unique<LldpJsonImporter>());
    importers_.push_back(std::make_unique<NcclLogImporter>());
    importers_.push_back(std::make_unique<JobCsvImporter>());
    importers_.push_back(std::make_unique<EthtoolImporter>());
    importers_.push_back(std::make_unique<SonicPfcImporter>());
    importers_.push_back(std::make_unique<LldpKeyvalueImporter>());
    importers_.push_back(std::make_unique<NetqTopologyImporter>());
    importers_.push_back(std::make_unique<SonicPortstatImporter>());
    importers_.push_back(std::make_unique<RdmaStatImporter>());
    importers_.push_back(std::make_unique<IbdiagnetDbCsvImporter>());
    importers_.push_back(std::make_unique<IbdiagnetFdbsImporter>());
    importers_.push_back(std::make_unique<IbdiagnetCablesImporter>());
    importers_.push_back(std::make_unique<IbdiagnetNetDumpExtImporter>());
    importers_.push_back(std::make_unique<IbdiagnetPmImporter>());
    importers_.push_back(std::make_unique<IbswinfoImporter>());
    importers_.push_back(std::make_unique<UfmTelemetryImporter>());
    importers_.push_back(std::make_unique<PerftestImporter>());
    importers_.push_back(std::make_unique<NcclTestsImporter>());
    importers_.push_back(std::make_unique<PingmeshCsvImporter>());
}

const Importer* ImporterRegistry::byName(std::string_view name) const {
    for (const auto& i : importers_)
        if (i->name() == name) return i.get();
    return nullptr;
}

const Importer* ImporterRegistry::detect(std::string_view head) const {
    const Importer* best = nullptr;
    int bestScore = 0;
    for (const auto& i : importers_) {
        const int s = i->detect(head);
        if (s > bestScore) {
            best = i.get();
            bestScore = s;
        }
    }
    return best;
}

std::vector<std::string_view> ImporterRegistry::names() const {
    std::vector<std::string_view> out;
    for (const auto& i : importers_) out.push_back(i->name());
    return out;
}

} // namespace fabscope
