<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AttWorkbench</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/workbench.py" line="72"/>
        <source>Perf formula</source>
        <translation>性能公式</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/workbench.py" line="72"/>
        <source>Summary</source>
        <translation>汇总</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/workbench.py" line="72"/>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/workbench.py" line="72"/>
        <source>Split slog</source>
        <translation>拆分 slog</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/workbench.py" line="75"/>
        <source>Runs</source>
        <translation>运行对比</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/workbench.py" line="76"/>
        <source>Open logs…</source>
        <translation>打开日志…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/workbench.py" line="77"/>
        <source>Open folder…</source>
        <translation>打开目录…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/workbench.py" line="78"/>
        <source>Export evidence…</source>
        <translation>导出证据…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/workbench.py" line="79"/>
        <source>att-evidence.jsonl + tool-manifest.json; an existing archive is never overwritten (a numbered folder is used instead)</source>
        <translation>att-evidence.jsonl + tool-manifest.json；不会覆盖已有的证据包（改用带编号的目录）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/workbench.py" line="82"/>
        <location filename="../../app/autofuse_studio/ui/att/workbench.py" line="115"/>
        <source>Opening {name}…</source>
        <translation>正在打开 {name}…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/workbench.py" line="86"/>
        <source>Drop an ATT log or a folder of logs here, or open one.</source>
        <translation>将 ATT 日志或日志目录拖放到此处，或点击打开。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/workbench.py" line="116"/>
        <source>Scanning logs</source>
        <translation>正在扫描日志</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/workbench.py" line="130"/>
        <source>Open a run root</source>
        <translation>打开运行目录</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/workbench.py" line="137"/>
        <source>Nothing opened.</source>
        <translation>尚未打开任何内容。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/workbench.py" line="156"/>
        <source>{title}: {files} file(s), {lines} lines, {ops} operator(s) with [PERF] lines, {rows} summary row(s)</source>
        <translation>{title}：{files} 个文件，{lines} 行，{ops} 个算子含 [PERF] 行，{rows} 行汇总</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/workbench.py" line="167"/>
        <source>Exporting evidence</source>
        <translation>正在导出证据</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/workbench.py" line="172"/>
        <source>{n} evidence record(s) written to {folder}</source>
        <translation>已将 {n} 条证据记录写入 {folder}</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/workbench.py" line="178"/>
        <source>Export evidence to folder</source>
        <translation>导出证据到目录</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/workbench.py" line="183"/>
        <source>Open ATT logs</source>
        <translation>打开 ATT 日志</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/workbench.py" line="186"/>
        <source>Open a folder of ATT logs</source>
        <translation>打开 ATT 日志目录</translation>
    </message>
</context>
<context>
    <name>CaseFactsModel</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_models.py" line="23"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_models.py" line="24"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_models.py" line="25"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_models.py" line="26"/>
        <source>Source (file:line)</source>
        <translation>来源（文件:行）</translation>
    </message>
</context>
<context>
    <name>CasePanel</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="162"/>
        <source>af-open graph</source>
        <translation>开启融合的图</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="162"/>
        <source>af-close graph</source>
        <translation>关闭融合的图</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="163"/>
        <source>af-open dumps</source>
        <translation>开启融合的 dump 目录</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="163"/>
        <source>af-close dumps</source>
        <translation>关闭融合的 dump 目录</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="164"/>
        <source>NPY A</source>
        <translation>NPY 文件 A</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="164"/>
        <source>NPY B</source>
        <translation>NPY 文件 B</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="168"/>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="169"/>
        <source>Graphs and dump folders (mode 1)</source>
        <translation>图与 dump 目录（模式1）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="170"/>
        <source>Two NPY files (mode 2)</source>
        <translation>两个 NPY 文件（模式2）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="172"/>
        <source>Swap graphs</source>
        <translation>交换两个图</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="173"/>
        <source>Swap dumps</source>
        <translation>交换两个 dump 目录</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="174"/>
        <source>Compare fused op inputs too</source>
        <translation>同时比较融合算子输入</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="175"/>
        <source>every step</source>
        <translation>全部步骤</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="176"/>
        <source>Analyse</source>
        <translation>分析</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="177"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="179"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="183"/>
        <source>Drop a run folder, dump folders, graphs or two NPY files here.</source>
        <translation>将运行目录、dump 目录、图文件或两个 NPY 文件拖放到此处。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="249"/>
        <source>af-open: %1</source>
        <translation>af-open：%1</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="250"/>
        <source>af-close: %1</source>
        <translation>af-close：%1</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="262"/>
        <source>%1 rank (%2)</source>
        <translation>%1 个 rank（%2）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="262"/>
        <source>%1 ranks (%2)</source>
        <translation>%1 个 rank（%2）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="265"/>
        <source>%1 step (%2)</source>
        <translation>%1 个 step（%2）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="265"/>
        <source>%1 steps (%2)</source>
        <translation>%1 个 step（%2）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="268"/>
        <source>statistics dumps (%1 CSV)</source>
        <translation>统计 dump（%1 个 CSV）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="269"/>
        <source>statistics dumps (%1 CSVs)</source>
        <translation>统计 dump（%1 个 CSV）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="271"/>
        <source>%1 NPY</source>
        <translation>%1 个 NPY</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="271"/>
        <source>%1 NPYs</source>
        <translation>%1 个 NPY</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="273"/>
        <source>%1 raw dump file</source>
        <translation>%1 个原始 dump 文件</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="273"/>
        <source>%1 raw dump files</source>
        <translation>%1 个原始 dump 文件</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="275"/>
        <source>%1 statistics CSV ignored</source>
        <translation>%1 个统计 CSV 已忽略</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="276"/>
        <source>%1 statistics CSVs ignored</source>
        <translation>%1 个统计 CSV 已忽略</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="337"/>
        <source>a Dask cluster</source>
        <translation>Dask 集群</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="339"/>
        <source>local (this machine)</source>
        <translation>本机</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="340"/>
        <source>Run on: %1</source>
        <translation>运行位置：%1</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="356"/>
        <source>This is a file; choose the dump folder that holds the dump files.</source>
        <translation>这是一个文件；请选择存放 dump 文件的 dump 目录。</translation>
    </message>
    <message>
        <source>This is a file; choose the dump folder that holds the NPYs.</source>
        <translation type="vanished">这是一个文件；请选择存放 NPY 的 dump 目录。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="357"/>
        <source>There is no folder at this path.</source>
        <translation>此路径下没有目录。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="360"/>
        <source>This is a folder; choose a file.</source>
        <translation>这是一个目录；请选择文件。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="361"/>
        <source>There is no file at this path.</source>
        <translation>此路径下没有文件。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="371"/>
        <source>Choose a dump folder</source>
        <translation>选择 dump 目录</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="373"/>
        <source>NPY files (*.npy)</source>
        <translation>NPY 文件 (*.npy)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="374"/>
        <source>GE graphs (*.json *.txt *.pbtxt);;All files (*)</source>
        <translation>GE 图 (*.json *.txt *.pbtxt);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="375"/>
        <source>Choose a file</source>
        <translation>选择文件</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="394"/>
        <source>This path cannot be sent to the host: %1.</source>
        <translation>此路径无法发送到远程主机：%1。</translation>
    </message>
</context>
<context>
    <name>ClusterRunChoice</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/cluster_run.py" line="33"/>
        <source>Run on a Dask cluster</source>
        <translation>在 Dask 集群上运行</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/cluster_run.py" line="34"/>
        <source>Scheduler</source>
        <translation>调度器</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/cluster_run.py" line="35"/>
        <source>Path map</source>
        <translation>路径映射</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/cluster_run.py" line="37"/>
        <source>optional file: WORKER:CLIENT_PREFIX=LOCAL_PREFIX lines</source>
        <translation>可选文件：每行 WORKER:CLIENT_PREFIX=LOCAL_PREFIX</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/cluster_run.py" line="38"/>
        <source>Compare where the dumps are: each pair on a Dask worker that sees its files; the rows are those of a run on this computer.</source>
        <translation>在 dump 所在处比较：每对张量由能看到其文件的 Dask worker 比较；结果行与在本机运行完全相同。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/cluster_run.py" line="69"/>
        <source>Compared %1 of %2 tasks on the cluster</source>
        <translation>集群上已完成 %1 / %2 个任务</translation>
    </message>
</context>
<context>
    <name>ColumnChooser</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/column_chooser.py" line="85"/>
        <source>Table columns</source>
        <translation>表格列</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/column_chooser.py" line="87"/>
        <source>%1 stay first and shown, also while you scroll sideways.</source>
        <translation>%1 始终显示在最前，横向滚动时也固定不动。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/column_chooser.py" line="88"/>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/column_chooser.py" line="101"/>
        <source>Move up</source>
        <translation>上移</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/column_chooser.py" line="102"/>
        <source>Move down</source>
        <translation>下移</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/column_chooser.py" line="103"/>
        <source>Reset columns</source>
        <translation>恢复默认列</translation>
    </message>
</context>
<context>
    <name>ComparePanel</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/compare_panel.py" line="94"/>
        <source>baseline: log, folder or summary CSV (e.g. default)</source>
        <translation>基线：日志、目录或汇总 CSV（如 default）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/compare_panel.py" line="95"/>
        <source>candidate: log, folder or summary CSV (e.g. PGO)</source>
        <translation>候选：日志、目录或汇总 CSV（如 PGO）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/compare_panel.py" line="98"/>
        <source>All operators</source>
        <translation>全部算子</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/compare_panel.py" line="98"/>
        <source>Changed</source>
        <translation>有变化</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/compare_panel.py" line="98"/>
        <source>Regressions</source>
        <translation>性能劣化</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/compare_panel.py" line="98"/>
        <source>Improvements</source>
        <translation>性能提升</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/compare_panel.py" line="99"/>
        <source>Only in one run</source>
        <translation>仅在一次运行中</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/compare_panel.py" line="102"/>
        <source>Baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/compare_panel.py" line="102"/>
        <source>Candidate</source>
        <translation>候选</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/compare_panel.py" line="105"/>
        <source>File…</source>
        <translation>文件…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/compare_panel.py" line="106"/>
        <source>Folder…</source>
        <translation>目录…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/compare_panel.py" line="107"/>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/compare_panel.py" line="108"/>
        <source>Export text…</source>
        <translation>导出文本…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/compare_panel.py" line="108"/>
        <source>Export xlsx…</source>
        <translation>导出 xlsx…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/compare_panel.py" line="118"/>
        <source>Both a baseline and a candidate are needed.</source>
        <translation>需要同时指定基线和候选。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/compare_panel.py" line="122"/>
        <source>{common} matched, {only1} only in baseline, {only2} only in candidate; {better} improved, {worse} regressed; {fields} field difference(s)</source>
        <translation>{common} 个匹配，{only1} 个仅在基线中，{only2} 个仅在候选中；{better} 个提升，{worse} 个劣化；{fields} 处字段差异</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/compare_panel.py" line="128"/>
        <source>Choose two runs and press Compare.</source>
        <translation>选择两次运行，然后点击“对比”。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/compare_panel.py" line="173"/>
        <source>Comparing runs</source>
        <translation>正在对比运行结果</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/compare_panel.py" line="201"/>
        <source>Exporting comparison</source>
        <translation>正在导出对比结果</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/compare_panel.py" line="208"/>
        <source>Export comparison</source>
        <translation>导出对比结果</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/compare_panel.py" line="213"/>
        <source>Choose a run</source>
        <translation>选择一次运行</translation>
    </message>
</context>
<context>
    <name>CompareTableModel</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/compare_model.py" line="29"/>
        <source>Operator | Graph | Result | Group</source>
        <translation>算子 | 图 | 结果 | 组</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/compare_model.py" line="31"/>
        <source>In</source>
        <translation>所在</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/compare_model.py" line="32"/>
        <source>Case</source>
        <translation>用例</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/compare_model.py" line="33"/>
        <source>Field diffs</source>
        <translation>字段差异</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/compare_model.py" line="34"/>
        <source>both</source>
        <translation>两者</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/compare_model.py" line="35"/>
        <source>only baseline</source>
        <translation>仅基线</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/compare_model.py" line="36"/>
        <source>only candidate</source>
        <translation>仅候选</translation>
    </message>
</context>
<context>
    <name>DetailsPanel</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/details.py" line="95"/>
        <source>%1: reading the graph&apos;s links…</source>
        <translation>%1：正在读取图的连接关系…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/details.py" line="102"/>
        <source>Select a node to see its inputs, outputs, attributes and precision rows.</source>
        <translation>选择一个节点以查看其输入、输出、属性和精度结果行。</translation>
    </message>
</context>
<context>
    <name>EvidenceModel</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_model.py" line="202"/>
        <source>Side</source>
        <translation>侧</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_model.py" line="202"/>
        <source>Location (file:line)</source>
        <translation>位置（文件:行）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_model.py" line="203"/>
        <source>Line</source>
        <translation>日志行</translation>
    </message>
</context>
<context>
    <name>FieldDiffModel</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/compare_model.py" line="37"/>
        <source>Column</source>
        <translation>列</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/compare_model.py" line="38"/>
        <source>Baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/compare_model.py" line="39"/>
        <source>Candidate</source>
        <translation>候选</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/compare_model.py" line="40"/>
        <source>Difference</source>
        <translation>差值</translation>
    </message>
</context>
<context>
    <name>FileMenuMixin</name>
    <message>
        <source>Open graphs or NPY files</source>
        <translation type="vanished">打开图或 NPY 文件</translation>
    </message>
    <message>
        <source>Graphs and NPYs (*.json *.txt *.pbtxt *.npy *.afcase)</source>
        <translation type="vanished">图与 NPY (*.json *.txt *.pbtxt *.npy *.afcase)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/file_menu.py" line="116"/>
        <source>New case: nothing is open.</source>
        <translation>新建案例：当前未打开任何内容。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/file_menu.py" line="124"/>
        <source>Closed %1.</source>
        <translation>已关闭 %1。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/file_menu.py" line="128"/>
        <source>Graphs, NPYs and ATT logs (*.json *.txt *.pbtxt *.npy *.afcase *.log *.gz)</source>
        <translation>图、NPY 与 ATT 日志 (*.json *.txt *.pbtxt *.npy *.afcase *.log *.gz)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/file_menu.py" line="129"/>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/file_menu.py" line="130"/>
        <source>Open graphs, NPY files or ATT logs</source>
        <translation>打开图、NPY 文件或 ATT 日志</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/file_menu.py" line="135"/>
        <source>Open a run or dump folder</source>
        <translation>打开运行目录或 dump 目录</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/file_menu.py" line="140"/>
        <source>Open case</source>
        <translation>打开用例</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/file_menu.py" line="140"/>
        <location filename="../../app/autofuse_studio/ui/file_menu.py" line="145"/>
        <source>Cases (*.afcase)</source>
        <translation>用例 (*.afcase)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/file_menu.py" line="145"/>
        <source>Save case</source>
        <translation>保存用例</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/file_menu.py" line="150"/>
        <source>Export table</source>
        <translation>导出表格</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/file_menu.py" line="161"/>
        <source>Export table picture</source>
        <translation>导出表格图片</translation>
    </message>
</context>
<context>
    <name>FilterBar</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/filter_bar.py" line="110"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/filter_bar.py" line="111"/>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/filter_bar.py" line="112"/>
        <source>Filter by op, file, dtype, message…</source>
        <translation>按算子、文件、数据类型、消息过滤…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/filter_bar.py" line="113"/>
        <source>Go to first divergence</source>
        <translation>跳转到首个劣化点</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/filter_bar.py" line="116"/>
        <source>Presets</source>
        <translation>预设</translation>
    </message>
    <message>
        <source>Save the current filter under a name, apply or delete a saved one</source>
        <translation type="vanished">将当前筛选按名称保存，应用或删除已保存的预设</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/filter_bar.py" line="117"/>
        <source>Filter presets: save the current filter under a name, apply or delete a saved one</source>
        <translation>筛选预设：将当前筛选按名称保存，应用或删除已保存的预设</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/filter_bar.py" line="119"/>
        <source>Delete preset</source>
        <translation>删除预设</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/filter_bar.py" line="123"/>
        <source>All verdicts</source>
        <translation>全部结论</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/filter_bar.py" line="124"/>
        <source>Failing (culprit or propagated)</source>
        <translation>不通过（根因或传播）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/filter_bar.py" line="129"/>
        <source>Signature</source>
        <translation>误差特征</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/filter_bar.py" line="131"/>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/filter_bar.py" line="132"/>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/filter_bar.py" line="168"/>
        <source>All statuses</source>
        <translation>全部状态</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/filter_bar.py" line="182"/>
        <source>All signatures</source>
        <translation>所有误差特征</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/filter_bar.py" line="197"/>
        <source>All ranks</source>
        <translation>全部 rank</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/filter_bar.py" line="198"/>
        <source>All steps</source>
        <translation>全部步骤</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/filter_bar.py" line="349"/>
        <source>Save current filter as…</source>
        <translation>将当前筛选另存为…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/filter_bar.py" line="354"/>
        <source>No saved presets</source>
        <translation>没有已保存的预设</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/filter_bar.py" line="371"/>
        <source>text &quot;%1&quot;</source>
        <translation>文本“%1”</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/filter_bar.py" line="372"/>
        <source>no filter</source>
        <translation>无筛选</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/filter_bar.py" line="375"/>
        <source>Save filter preset</source>
        <translation>保存筛选预设</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/filter_bar.py" line="375"/>
        <source>Name of the preset:</source>
        <translation>预设名称：</translation>
    </message>
</context>
<context>
    <name>GraphBrowse</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/browse.py" line="20"/>
        <source>the af-open graph</source>
        <translation>af-open 图</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/browse.py" line="21"/>
        <source>the af-close graph</source>
        <translation>af-close 图</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/browse.py" line="22"/>
        <source>the af-open dump folder</source>
        <translation>af-open dump 目录</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/browse.py" line="23"/>
        <source>the af-close dump folder</source>
        <translation>af-close dump 目录</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/browse.py" line="26"/>
        <source>%1 and %2</source>
        <translation>%1 和 %2</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/browse.py" line="28"/>
        <source>Only graphs are open, for browsing in the Graph tab; a precision comparison also needs %1 (drop or browse them).</source>
        <translation>只打开了图，可在“图”标签页中浏览；精度比对还需要 %1（拖入或浏览选择）。</translation>
    </message>
</context>
<context>
    <name>GraphDetails</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/details.py" line="23"/>
        <source>Op</source>
        <translation>算子</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/details.py" line="24"/>
        <source>Inputs</source>
        <translation>输入</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/details.py" line="25"/>
        <source>Outputs</source>
        <translation>输出</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/details.py" line="26"/>
        <source>Attributes</source>
        <translation>属性</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/details.py" line="27"/>
        <source>Fusion mapping</source>
        <translation>融合映射</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/details.py" line="28"/>
        <source>Fused into</source>
        <translation>融合进</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/details.py" line="29"/>
        <source>Precision rows</source>
        <translation>精度结果行</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/details.py" line="30"/>
        <source>field</source>
        <translation>字段</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/details.py" line="31"/>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/details.py" line="32"/>
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/details.py" line="33"/>
        <source>from / to</source>
        <translation>来源 / 去向</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/details.py" line="34"/>
        <source>origin format</source>
        <translation>原始格式</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/details.py" line="35"/>
        <source>origin shape</source>
        <translation>原始形状</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/details.py" line="36"/>
        <source>shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/details.py" line="37"/>
        <source>what</source>
        <translation>项</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/details.py" line="38"/>
        <source>original</source>
        <translation>原算子</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/details.py" line="39"/>
        <source>fused op</source>
        <translation>融合算子</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/details.py" line="40"/>
        <source>step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/details.py" line="41"/>
        <source>kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/details.py" line="42"/>
        <source>fused</source>
        <translation>融合侧</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/details.py" line="43"/>
        <source>origin</source>
        <translation>原始侧</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/details.py" line="44"/>
        <source>status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/details.py" line="45"/>
        <source>verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/details.py" line="46"/>
        <source>cosine</source>
        <translation>余弦相似度</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/details.py" line="47"/>
        <source>max abs err</source>
        <translation>绝对误差最大值</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/details.py" line="50"/>
        <source>%1: not in this graph</source>
        <translation>%1：不在此图中</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/details.py" line="58"/>
        <source>none</source>
        <translation>无</translation>
    </message>
</context>
<context>
    <name>GraphItem</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/item.py" line="293"/>
        <source>first divergence</source>
        <translation>首个劣化点</translation>
    </message>
</context>
<context>
    <name>GraphToolbar</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="123"/>
        <source>Side by side</source>
        <translation>并排</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="123"/>
        <source>Overlay (fusion boxes)</source>
        <translation>叠加（融合框）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="124"/>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="125"/>
        <source>All nodes</source>
        <translation>全部节点</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="125"/>
        <source>Around selection</source>
        <translation>选中项附近</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="125"/>
        <source>Around failing rows</source>
        <translation>不通过行附近</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="126"/>
        <source>up+down</source>
        <translation>上游+下游</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="126"/>
        <source>upstream</source>
        <translation>上游</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="126"/>
        <source>downstream</source>
        <translation>下游</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="127"/>
        <source>Search op name or type…</source>
        <translation>搜索算子名或类型…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="128"/>
        <source>Hops up/downstream to keep (∞: unlimited)</source>
        <translation>保留的上/下游跳数（∞：不限）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="129"/>
        <source>Trace inputs</source>
        <translation>追踪输入</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="130"/>
        <source>Trace outputs</source>
        <translation>追踪输出</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="131"/>
        <source>Clear</source>
        <translation>清除</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="132"/>
        <source>no scopes</source>
        <translation>不折叠作用域</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="133"/>
        <source>collapse scopes at depth </source>
        <translation>折叠作用域，深度 </translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="134"/>
        <source>Subgraphs in place</source>
        <translation>原位展开子图</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="135"/>
        <source>Collapse fusion groups</source>
        <translation>折叠融合组</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="136"/>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="137"/>
        <source>Fit the whole graph (both panes when zoom is synced); F in a pane</source>
        <translation>适配整个图（同步缩放时两个窗格一起）；窗格内按 F</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="138"/>
        <source>Back to the previous selection (Alt+Left)</source>
        <translation>返回上一个选中项（Alt+←）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="139"/>
        <source>Forward to the next selection (Alt+Right)</source>
        <translation>前进到下一个选中项（Alt+→）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="142"/>
        <source>Sync zoom</source>
        <translation>同步缩放</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="143"/>
        <source>Zoom and pan both panes together</source>
        <translation>两个窗格一起缩放和平移</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="144"/>
        <source>Compare with…</source>
        <translation>与…对比</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="145"/>
        <source>Open a second graph beside this one</source>
        <translation>在此图旁打开第二个图</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="146"/>
        <source>Layers</source>
        <translation>层级</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="147"/>
        <source>Show the tree of op name scopes (layers)</source>
        <translation>显示算子名作用域（层级）树</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="148"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="149"/>
        <source>Current view as PNG…</source>
        <translation>当前视图导出为 PNG…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="149"/>
        <source>Current view as SVG…</source>
        <translation>当前视图导出为 SVG…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="149"/>
        <source>Whole graph as PNG…</source>
        <translation>整图导出为 PNG…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="150"/>
        <source>Whole graph as SVG…</source>
        <translation>整图导出为 SVG…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="153"/>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="154"/>
        <source>Colour</source>
        <translation>着色</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/toolbar.py" line="155"/>
        <source>Show</source>
        <translation>显示</translation>
    </message>
</context>
<context>
    <name>GraphView</name>
    <message numerus="yes">
        <location filename="../../app/autofuse_studio/ui/graph/view.py" line="299"/>
        <source>%n op(s)</source>
        <translation>
            <numerusform>%n 个算子</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>GraphWorkbench</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/workbench.py" line="136"/>
        <source>af-open (fused)</source>
        <translation>开启融合（融合后）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/workbench.py" line="137"/>
        <source>af-close with fusion groups (overlay)</source>
        <translation>关闭融合，含融合组（叠加）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/workbench.py" line="138"/>
        <source>af-close (original)</source>
        <translation>关闭融合（原图）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/workbench.py" line="144"/>
        <source>Map</source>
        <translation>缩略图</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/workbench.py" line="145"/>
        <source>Show or hide the minimap (shown while part of the graph is outside the view)</source>
        <translation>显示或隐藏缩略图（图有部分在视图之外时显示）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/workbench.py" line="148"/>
        <source>Open a graph or a case…

File &gt; Open (Ctrl+O), or drop a GE graph (JSON, pbtxt) or a case folder on the window. A graph alone opens whole, like a model in Netron; a case shows its af-open and af-close graphs side by side.</source>
        <translation>打开一个图或一个案例…

文件 &gt; 打开（Ctrl+O），或把 GE 图（JSON、pbtxt）或案例文件夹拖到窗口上。单独的图会像 Netron 打开模型一样完整显示；案例会并排显示其 af-open 和 af-close 图。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/workbench.py" line="286"/>
        <source>Compare with a graph</source>
        <translation>与一个图对比</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/workbench.py" line="287"/>
        <source>GE graphs (*.json *.txt *.pbtxt);;All files (*)</source>
        <translation>GE 图 (*.json *.txt *.pbtxt);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/workbench.py" line="673"/>
        <source>%1: %2 nodes</source>
        <translation>%1：%2 个节点</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/workbench.py" line="676"/>
        <source>whole graphs side by side in one picture (%1)</source>
        <translation>整图并排于一张图片中（%1）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/workbench.py" line="678"/>
        <source>whole graph (%1)</source>
        <translation>整图（%1）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/workbench.py" line="690"/>
        <source>Export graph</source>
        <translation>导出图</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/workbench.py" line="698"/>
        <source>There is no graph to export: open a case or a graph first.</source>
        <translation>没有可导出的图：请先打开一个用例或一张图。</translation>
    </message>
</context>
<context>
    <name>HelpActions</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/help_actions.py" line="57"/>
        <source>&amp;Keyboard shortcuts…</source>
        <translation>键盘快捷键(&amp;K)…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/help_actions.py" line="58"/>
        <source>&amp;Documentation</source>
        <translation>文档(&amp;D)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/help_actions.py" line="67"/>
        <source>Documentation</source>
        <translation>文档</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/help_actions.py" line="68"/>
        <source>No documentation was found next to this copy of the program; the README and the docs folder of the source distribution describe every view.</source>
        <translation>在本程序旁没有找到文档；源码发行包中的 README 和 docs 文件夹介绍了每个视图。</translation>
    </message>
</context>
<context>
    <name>HistoryModel</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/history.py" line="96"/>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/history.py" line="96"/>
        <source>Source</source>
        <translation>源码</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/history.py" line="96"/>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/history.py" line="96"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/history.py" line="97"/>
        <source>workspace</source>
        <translation>工作空间</translation>
    </message>
</context>
<context>
    <name>HostDialog</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/hosts.py" line="54"/>
        <source>Build hosts</source>
        <translation>构建主机</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/hosts.py" line="69"/>
        <source>user@host or a ~/.ssh/config alias</source>
        <translation>user@host 或 ~/.ssh/config 中的别名</translation>
    </message>
    <message>
        <source>default</source>
        <translation type="vanished">默认</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/hosts.py" line="93"/>
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/hosts.py" line="93"/>
        <source>destination</source>
        <translation>目标地址</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/hosts.py" line="94"/>
        <source>identity file</source>
        <translation>密钥文件</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/hosts.py" line="94"/>
        <source>proxy jump</source>
        <translation>跳板机</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/hosts.py" line="95"/>
        <source>work dir</source>
        <translation>工作目录</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/hosts.py" line="95"/>
        <source>ascend home</source>
        <translation>Ascend 安装目录</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/hosts.py" line="95"/>
        <source>python</source>
        <translation>Python</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/hosts.py" line="93"/>
        <source>port</source>
        <translation>端口</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/hosts.py" line="70"/>
        <source>default (22)</source>
        <translation>默认（22）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/hosts.py" line="71"/>
        <source>[user@]host[:port], comma separated</source>
        <translation>[user@]host[:port]，逗号分隔</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/hosts.py" line="76"/>
        <source>Save profile</source>
        <translation>保存配置</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/hosts.py" line="77"/>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/hosts.py" line="78"/>
        <source>Runs ssh -o BatchMode=yes … true with these fields (no password is ever asked)</source>
        <translation>用这些字段运行 ssh -o BatchMode=yes … true（从不询问密码）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/hosts.py" line="96"/>
        <source>known_hosts file</source>
        <translation>known_hosts 文件</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/hosts.py" line="101"/>
        <source>Remove profile</source>
        <translation>删除配置</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/hosts.py" line="120"/>
        <source>⚠ {0} — invalid, select it to repair</source>
        <translation>⚠ {0} — 无效，选中后修复</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/hosts.py" line="213"/>
        <source>Connecting to %1…</source>
        <translation>正在连接 %1…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/hosts.py" line="231"/>
        <source>Connected to %1: ssh works without a password.</source>
        <translation>已连接到 %1：ssh 无需密码即可使用。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/hosts.py" line="234"/>
        <source>ssh could not be started: is the OpenSSH client installed?</source>
        <translation>无法启动 ssh：是否已安装 OpenSSH 客户端？</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/hosts.py" line="236"/>
        <source>No answer from %1 within %2 s.</source>
        <translation>%1 在 %2 秒内没有响应。</translation>
    </message>
</context>
<context>
    <name>LegendBar</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/legend.py" line="35"/>
        <source>Fill: the verdict (orange = propagated from an earlier culprit). Borders: blue = the selected op; purple dashed = mapped across the fusion (the fused op or the original ops of the selection in the other pane, or a scope&apos;s ops); teal = traced inputs or outputs (the rest faded); thick black = first divergence.</source>
        <translation>填充色：结论（橙色 = 由更早的元凶传播）。边框：蓝色 = 选中的算子；紫色虚线 = 跨融合映射（另一窗格中选中项的融合算子或原始算子，或某作用域的算子）；青色 = 追踪到的输入或输出（其余淡化）；粗黑框 = 首个分歧。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/legend.py" line="41"/>
        <source>selected</source>
        <translation>选中</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/legend.py" line="41"/>
        <source>mapped (fused ↔ original)</source>
        <translation>映射（融合 ↔ 原始）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/legend.py" line="42"/>
        <source>traced</source>
        <translation>追踪</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/legend.py" line="47"/>
        <source>colours of rank %1, step %2</source>
        <translation>按 rank %1、step %2 着色</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/legend.py" line="49"/>
        <source>colours of rank %1</source>
        <translation>按 rank %1 着色</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/legend.py" line="50"/>
        <source>colours of step %1</source>
        <translation>按 step %1 着色</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/legend.py" line="54"/>
        <source>not compared</source>
        <translation>未比较</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/legend.py" line="54"/>
        <source>first divergence</source>
        <translation>首个劣化点</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/legend.py" line="55"/>
        <source>%1 (best)</source>
        <translation>%1（最好）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/legend.py" line="55"/>
        <source>%1 (worst)</source>
        <translation>%1（最差）</translation>
    </message>
</context>
<context>
    <name>LimitInput</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/limit_input.py" line="58"/>
        <source>a whole number ≥ %1</source>
        <translation>≥ %1 的整数</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/limit_input.py" line="60"/>
        <source>a number ≥ %1</source>
        <translation>≥ %1 的数</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/limit_input.py" line="61"/>
        <source>a number from %1 to %2</source>
        <translation>%1 到 %2 之间的数</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/limit_input.py" line="68"/>
        <source>Accepted: %1, e.g. 0 or 2.</source>
        <translation>可输入：%1，例如 0 或 2。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/limit_input.py" line="70"/>
        <source>Accepted: %1, written 0.01, 0,01 or 1e-3.</source>
        <translation>可输入：%1，可写作 0.01、0,01 或 1e-3。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/limit_input.py" line="72"/>
        <source>Accepted: %1, written 0.99, 0,99 or 1e-3; leave empty for &apos;not checked&apos;.</source>
        <translation>可输入：%1，写作 0.99、0,99 或 1e-3；留空表示“不检查”。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/limit_input.py" line="85"/>
        <source>This limit needs a number.</source>
        <translation>此限值必须填写数字。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/limit_input.py" line="89"/>
        <source>“%1” is not a number.</source>
        <translation>“%1”不是数字。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/limit_input.py" line="93"/>
        <source>%1 is not %2.</source>
        <translation>%1 不是%2。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/limit_input.py" line="98"/>
        <source>%1 is not a whole number.</source>
        <translation>%1 不是整数。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/limit_input.py" line="107"/>
        <source>%1 The limit stays unchecked.</source>
        <translation>%1此项仍不检查。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/limit_input.py" line="108"/>
        <source>%1 Still using %2.</source>
        <translation>%1仍使用 %2。</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="241"/>
        <source>Wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="277"/>
        <source>GE graphs (*.json *.pbtxt *.txt *.pb)</source>
        <translation>GE 图 (*.json *.pbtxt *.txt *.pb)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="277"/>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="278"/>
        <source>Open graph</source>
        <translation>打开图</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="301"/>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="301"/>
        <source>Graph</source>
        <translation>图</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="301"/>
        <source>ATT</source>
        <translation>ATT</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="301"/>
        <source>Runner</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="303"/>
        <source>Case</source>
        <translation>用例</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="304"/>
        <source>Thresholds</source>
        <translation>阈值</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="305"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="306"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="307"/>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="308"/>
        <source>&amp;Analysis</source>
        <translation>分析(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="309"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="310"/>
        <source>Recent cases</source>
        <translation>最近的用例</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="312"/>
        <source>&amp;Open files…</source>
        <translation>打开文件(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="312"/>
        <source>Open &amp;folder…</source>
        <translation>打开目录(&amp;F)…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="313"/>
        <source>Open &amp;case file…</source>
        <translation>打开用例文件(&amp;C)…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="313"/>
        <source>&amp;Save case as…</source>
        <translation>用例另存为(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="314"/>
        <source>Open &amp;run root (ATT default vs PGO)…</source>
        <translation>打开运行目录（ATT default 对比 PGO）(&amp;R)…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="315"/>
        <source>&amp;Export table (CSV, JSON, xlsx)…</source>
        <translation>导出表格（CSV、JSON、xlsx）(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="316"/>
        <source>Export table &amp;picture (PNG, SVG)…</source>
        <translation>导出表格图片（PNG、SVG）(&amp;P)…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="317"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="317"/>
        <source>&amp;Analyse</source>
        <translation>分析(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="318"/>
        <source>&amp;New case</source>
        <translation>新建案例(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="318"/>
        <source>&amp;Close</source>
        <translation>关闭(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="319"/>
        <source>&amp;Cancel analysis</source>
        <translation>取消分析(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="319"/>
        <source>Go to first &amp;divergence</source>
        <translation>跳转到首个劣化点(&amp;D)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="320"/>
        <source>&amp;About %1</source>
        <translation>关于 %1(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="324"/>
        <source>System language</source>
        <translation>跟随系统语言</translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="352"/>
        <source>Looking at %n item(s)…</source>
        <translation>
            <numerusform>正在查看 %n 项…</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="376"/>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="436"/>
        <source>Nothing opened: %1</source>
        <translation>未打开任何内容：%1</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="400"/>
        <source>Opened %1 in the Graph tab.</source>
        <translation>已在“图”页打开 %1。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="404"/>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="446"/>
        <source>Opened %1; the case is not complete yet (see the case panel).</source>
        <translation>已打开 %1；用例尚不完整（见用例面板）。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="406"/>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="448"/>
        <source>Opened the case %1: analysing…</source>
        <translation>已打开用例 %1：正在分析…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="427"/>
        <source>Opened the ATT logs %1: scanning…</source>
        <translation>已打开 ATT 日志 %1：正在扫描…</translation>
    </message>
    <message numerus="yes">
        <source>Opened %n item(s)</source>
        <translation type="vanished">
            <numerusform>已打开 %n 项</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="511"/>
        <source>Parsing graphs and indexing dump folders…</source>
        <translation>正在解析图并索引 dump 目录…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="516"/>
        <source>Indexed %1 files</source>
        <translation>已索引 %1 个文件</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="521"/>
        <source>Indexed %1 files · compared %2 of %3 pairs</source>
        <translation>已索引 %1 个文件 · 已比较 %2/%3 对</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="586"/>
        <source>%1 rows; first divergence: %2</source>
        <translation>共 %1 行；首个劣化点：%2</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="597"/>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>Open graphs or NPY files</source>
        <translation type="vanished">打开图或 NPY 文件</translation>
    </message>
    <message>
        <source>Graphs and NPYs (*.json *.txt *.pbtxt *.npy *.afcase)</source>
        <translation type="vanished">图与 NPY (*.json *.txt *.pbtxt *.npy *.afcase)</translation>
    </message>
    <message>
        <source>Open a run or dump folder</source>
        <translation type="vanished">打开运行目录或 dump 目录</translation>
    </message>
    <message>
        <source>Open case</source>
        <translation type="vanished">打开用例</translation>
    </message>
    <message>
        <source>Cases (*.afcase)</source>
        <translation type="vanished">用例 (*.afcase)</translation>
    </message>
    <message>
        <source>Save case</source>
        <translation type="vanished">保存用例</translation>
    </message>
    <message>
        <source>Export table</source>
        <translation type="vanished">导出表格</translation>
    </message>
    <message>
        <source>Export table picture</source>
        <translation type="vanished">导出表格图片</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="654"/>
        <source>A workbench for CANN Autofuse: fusion precision and ATT tiling analysis.</source>
        <translation>CANN 自动融合调试工作台：融合精度与 ATT 切分分析。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="657"/>
        <source>About %1</source>
        <translation>关于 %1</translation>
    </message>
</context>
<context>
    <name>NoticesModel</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/notices_model.py" line="23"/>
        <source>both sides</source>
        <translation>两侧</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/notices_model.py" line="123"/>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/notices_model.py" line="124"/>
        <source>Concerns</source>
        <translation>涉及</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/notices_model.py" line="125"/>
        <source>Count</source>
        <translation>数量</translation>
    </message>
</context>
<context>
    <name>NoticesPanel</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/notices_panel.py" line="60"/>
        <source>0 rows: the af-open graph has no fused operators (no AscBackend/FusedAscBackend op and no _datadump_origin_name attribute)</source>
        <translation>0 行：af-open 图中没有融合算子（没有 AscBackend/FusedAscBackend 算子，也没有 _datadump_origin_name 属性）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/notices_panel.py" line="63"/>
        <source>0 rows: the two dump folders have no rank and step in common</source>
        <translation>0 行：两个 dump 目录没有共同的 rank 和 step</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/notices_panel.py" line="65"/>
        <source>0 rows: nothing could be paired for comparing</source>
        <translation>0 行：没有可配对比较的内容</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/notices_panel.py" line="152"/>
        <source>Warnings</source>
        <translation>警告</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/notices_panel.py" line="153"/>
        <source>Show or hide what the analysis had to say about the inputs</source>
        <translation>显示或隐藏分析对输入给出的提示</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/notices_panel.py" line="154"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/autofuse_studio/ui/precision/notices_panel.py" line="173"/>
        <source>%n kind(s) of warning</source>
        <translation>
            <numerusform>%n 类警告</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/notices_panel.py" line="217"/>
        <source>Concerns:</source>
        <translation>涉及：</translation>
    </message>
</context>
<context>
    <name>OpTrend</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/trend_plot.py" line="80"/>
        <source>Cosine per step</source>
        <translation>各步骤的余弦相似度</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/trend_plot.py" line="81"/>
        <source>Max relative error per step (log)</source>
        <translation>各步骤的最大相对误差（对数）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/trend_plot.py" line="83"/>
        <source>step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/trend_plot.py" line="98"/>
        <source>No row selected: no trend.</source>
        <translation>未选中行：无趋势。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/trend_plot.py" line="101"/>
        <source>One step, one rank: no trend.</source>
        <translation>只有一个步骤、一个 rank：无趋势。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/trend_plot.py" line="112"/>
        <source>rank %1</source>
        <translation>rank %1</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/trend_plot.py" line="112"/>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/trend_plot.py" line="128"/>
        <source>%1: %2 points (%3 ranks × %4 steps); the selected row is ringed.</source>
        <translation>%1：%2 个点（%3 个 rank × %4 个步骤）；选中的行以圆圈标出。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/trend_plot.py" line="131"/>
        <source>%1 without a metric (not compared).</source>
        <translation>%1 个没有指标（未比较）。</translation>
    </message>
</context>
<context>
    <name>OperatorListModel</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_models.py" line="71"/>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_models.py" line="71"/>
        <source>Selected result</source>
        <translation>选中的结果</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_models.py" line="71"/>
        <source>Groups</source>
        <translation>组</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_models.py" line="71"/>
        <source>Cases</source>
        <translation>用例数</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_models.py" line="72"/>
        <source>Bottlenecks</source>
        <translation>瓶颈</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_models.py" line="89"/>
        <source>no [PERF] lines</source>
        <translation>无 [PERF] 行</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_models.py" line="96"/>
        <source>Selected case: %1</source>
        <translation>选中的用例：%1</translation>
    </message>
</context>
<context>
    <name>PerfMessages</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_messages.py" line="17"/>
        <source>%1 has no [PERF] lines: there is nothing to draw for it.
Choose an operator in black on the left.</source>
        <translation>%1 没有 [PERF] 行：没有可绘制的内容。
请在左侧选择黑色显示的算子。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_messages.py" line="23"/>
        <source>No [PERF] lines in %1 file(s) (%2 lines read): there is no perf picture.</source>
        <translation>%1 个文件（已读取 %2 行）中没有 [PERF] 行：无法生成性能图。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_messages.py" line="33"/>
        <source>Found: %1 operator(s) with other ATT lines (%2), %3 FINAL_TILING record(s), %4 [DFX] marker(s); see the Summary and Split slog tabs.</source>
        <translation>找到：%1 个带其他 ATT 行的算子（%2），%3 条 FINAL_TILING 记录，%4 个 [DFX] 标记；请查看“汇总”和“拆分 slog”页。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_messages.py" line="40"/>
        <source>No ATT lines at all ([PERF], [PROF], [DFX], FINAL_TILING): is this the log of an Autofuse compile with ATT logging on?</source>
        <translation>完全没有 ATT 行（[PERF]、[PROF]、[DFX]、FINAL_TILING）：这是开启了 ATT 日志的 Autofuse 编译日志吗？</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_messages.py" line="43"/>
        <source>%1 line(s) were not valid UTF-8.</source>
        <translation>%1 行不是有效的 UTF-8。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_messages.py" line="51"/>
        <source>To see a perf picture, open the logs of a compile whose ATT output includes the [PERF] perf-formula lines (Open logs… or drop them here).</source>
        <translation>要查看性能图，请打开 ATT 输出中包含 [PERF] 性能公式行的编译日志（“打开日志…”或拖放到此处）。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_messages.py" line="57"/>
        <source>No ATT logs open. Open logs… or Open folder… (or drop logs here) to draw their perf formulas.</source>
        <translation>尚未打开 ATT 日志。请使用“打开日志…”或“打开目录…”（或将日志拖放到此处）以绘制其性能公式。</translation>
    </message>
</context>
<context>
    <name>PerfPanel</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_panel.py" line="107"/>
        <source>Chosen operator: every case</source>
        <translation>所选算子：全部用例</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_panel.py" line="108"/>
        <source>All operators (perf_formula.svg)</source>
        <translation>全部算子（perf_formula.svg）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_panel.py" line="296"/>
        <source>Click a case on the canvas to see its tiling values and log lines.</source>
        <translation>点击画布上的用例，查看其切分参数值和日志行。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_panel.py" line="109"/>
        <source>Show:</source>
        <translation>显示：</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_panel.py" line="110"/>
        <source>Zoom +</source>
        <translation>放大</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_panel.py" line="110"/>
        <source>Zoom −</source>
        <translation>缩小</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_panel.py" line="110"/>
        <source>Export PNG…</source>
        <translation>导出 PNG…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_panel.py" line="110"/>
        <source>Export SVG…</source>
        <translation>导出 SVG…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_panel.py" line="225"/>
        <source>Drawing all operators</source>
        <translation>正在绘制全部算子</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_panel.py" line="232"/>
        <source>Building the picture of all operators…</source>
        <translation>正在生成全部算子的图…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_panel.py" line="299"/>
        <source>n/a</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_panel.py" line="300"/>
        <source>%1 %2 — selected: objective %3, result performance %4, %5 fact(s) with their log lines</source>
        <translation>%1 %2 — 已选中：目标值 %3，结果性能 %4，%5 条事实及其日志行</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_panel.py" line="302"/>
        <source>%1 %2: objective %3, result performance %4, %5 fact(s) with their log lines</source>
        <translation>%1 %2：目标值 %3，结果性能 %4，%5 条事实及其日志行</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_panel.py" line="325"/>
        <source>Export canvas as PNG</source>
        <translation>将画布导出为 PNG</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_panel.py" line="334"/>
        <source>Export canvas as SVG</source>
        <translation>将画布导出为 SVG</translation>
    </message>
</context>
<context>
    <name>PrecisionColumns</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/column_texts.py" line="64"/>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="29"/>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="29"/>
        <source>input</source>
        <translation>输入</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="44"/>
        <source>Mean abs err</source>
        <translation>平均绝对误差</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="45"/>
        <source>RMSE</source>
        <translation>均方根误差</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="46"/>
        <source>Rel. Euclidean</source>
        <translation>相对欧氏距离</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="47"/>
        <source>Within 0.1%</source>
        <translation>千分之一通过率</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="48"/>
        <source>Within 0.5%</source>
        <translation>千分之五通过率</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="49"/>
        <source>NaN fused</source>
        <translation>融合侧 NaN</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="50"/>
        <source>Inf fused</source>
        <translation>融合侧 Inf</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="51"/>
        <source>NaN origin</source>
        <translation>原始侧 NaN</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="52"/>
        <source>Inf origin</source>
        <translation>原始侧 Inf</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="53"/>
        <source>NaN/Inf mismatch</source>
        <translation>NaN/Inf 不一致</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="54"/>
        <source>Elements</source>
        <translation>元素个数</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="60"/>
        <source>Signature</source>
        <translation>误差特征</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="62"/>
        <source>output: a fused op&apos;s output against its origin op&apos;s output; input: a fused op&apos;s input (--compare-input).</source>
        <translation>output：融合算子的输出与其原算子的输出比较；input：融合算子的输入（--compare-input）。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="64"/>
        <source>The fused op (af-open graph).</source>
        <translation>融合算子（af-open 图）。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="65"/>
        <source>Which output (or input) of the fused op.</source>
        <translation>融合算子的第几个输出（或输入）。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="66"/>
        <source>The af-close op whose output the fused tensor is compared with.</source>
        <translation>与融合侧张量比较其输出的 af-close 图算子。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="67"/>
        <source>Which output of the origin op.</source>
        <translation>原算子的第几个输出。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="68"/>
        <source>Cosine similarity: a·b / (‖a‖·‖b‖ + 1e-8) (a: fused tensor, b: origin tensor).</source>
        <translation>余弦相似度：a·b / (‖a‖·‖b‖ + 1e-8)（a：融合侧张量，b：原始侧张量）。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="70"/>
        <source>Largest absolute error: max |a − b| (a: fused tensor, b: origin tensor); statistics rows: the most divergent statistic&apos;s |fused − origin|.</source>
        <translation>绝对误差最大值：max |a − b|（a：融合侧张量，b：原始侧张量）；统计值行：偏差最大的统计值的 |融合侧 − 原始侧|。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="72"/>
        <source>Largest relative error: max |a − b| / (max(|a|, |b|) + 1e-8) (a: fused tensor, b: origin tensor); statistics rows: the most divergent statistic&apos;s relative difference.</source>
        <translation>相对误差最大值：max |a − b| / (max(|a|, |b|) + 1e-8)（a：融合侧张量，b：原始侧张量）；统计值行：偏差最大的统计值的相对差。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="75"/>
        <source>OK when compared, else why not (NO_MAPPING, FILE_NOT_FOUND, SHAPE_MISMATCH, ...).</source>
        <translation>比较了则为 OK，否则说明原因（NO_MAPPING、FILE_NOT_FOUND、SHAPE_MISMATCH 等）。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="77"/>
        <source>CULPRIT: fails while its inputs are fine; PROPAGATED: fails because an upstream op already failed; OK: within the thresholds; UNKNOWN: not compared.</source>
        <translation>CULPRIT：输入正常而自身失败；PROPAGATED：因上游算子已失败而失败；OK：在阈值之内；UNKNOWN：未比较。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="80"/>
        <source>The device (rank) of a multi-rank dump; empty when neither side has several ranks.</source>
        <translation>多 rank dump 的设备号（rank）；两侧都只有一个 rank 时为空。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="82"/>
        <source>The step (iteration) folder the two dumps come from.</source>
        <translation>两份 dump 所在的步骤（迭代）目录。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="83"/>
        <source>k-th dump (timestamp order) of an op dumped k times on both sides.</source>
        <translation>在两侧都被 dump k 次的算子的第 k 次 dump（按时间戳顺序）。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="84"/>
        <source>Mean absolute error: Σ|a − b| / n (a: fused tensor, b: origin tensor, n: elements).</source>
        <translation>平均绝对误差：Σ|a − b| / n（a：融合侧张量，b：原始侧张量，n：元素个数）。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="86"/>
        <source>Root mean square error: √(Σ(a − b)² / n) (a: fused tensor, b: origin tensor, n: elements).</source>
        <translation>均方根误差：√(Σ(a − b)² / n)（a：融合侧张量，b：原始侧张量，n：元素个数）。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="88"/>
        <source>Relative Euclidean distance: ‖a − b‖ / ‖b‖, 0 when both are 0 (a: fused tensor, b: origin tensor).</source>
        <translation>相对欧氏距离：‖a − b‖ / ‖b‖，两者均为 0 时为 0（a：融合侧张量，b：原始侧张量）。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="90"/>
        <source>Share of elements whose relative error |a − b| / (max(|a|, |b|) + 1e-8) is below 0.001 (a: fused tensor, b: origin tensor).</source>
        <translation>相对误差 |a − b| / (max(|a|, |b|) + 1e-8) 小于 0.001 的元素占比（a：融合侧张量，b：原始侧张量）。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="92"/>
        <source>Share of elements whose relative error |a − b| / (max(|a|, |b|) + 1e-8) is below 0.005 (a: fused tensor, b: origin tensor).</source>
        <translation>相对误差 |a − b| / (max(|a|, |b|) + 1e-8) 小于 0.005 的元素占比（a：融合侧张量，b：原始侧张量）。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="94"/>
        <source>NaN elements of the fused tensor.</source>
        <translation>融合侧张量中 NaN 元素的个数。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="95"/>
        <source>+Inf and -Inf elements of the fused tensor.</source>
        <translation>融合侧张量中 +Inf 和 -Inf 元素的个数。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="96"/>
        <source>NaN elements of the origin tensor.</source>
        <translation>原始侧张量中 NaN 元素的个数。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="97"/>
        <source>+Inf and -Inf elements of the origin tensor.</source>
        <translation>原始侧张量中 +Inf 和 -Inf 元素的个数。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="98"/>
        <source>Positions where only one side is NaN or Inf, or the Infs differ.</source>
        <translation>只有一侧为 NaN 或 Inf、或两侧 Inf 不同的位置个数。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="99"/>
        <source>Elements compared (n).</source>
        <translation>比较的元素个数（n）。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="100"/>
        <source>Data type of the fused tensor.</source>
        <translation>融合侧张量的数据类型。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="101"/>
        <source>Data type of the origin tensor.</source>
        <translation>原始侧张量的数据类型。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="102"/>
        <source>Shape of the fused tensor (as compared).</source>
        <translation>融合侧张量的形状（比较时的形状）。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="103"/>
        <source>Shape of the origin tensor (as compared).</source>
        <translation>原始侧张量的形状（比较时的形状）。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="104"/>
        <source>Statistics mode: the statistic that diverged most, fused vs origin (relative difference).</source>
        <translation>统计值模式：偏差最大的统计值，融合侧对原始侧（相对差）。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="106"/>
        <source>The kind of error a failing row holds (overflow, bias, scale, ...; the JSON row has code, confidence, params and sentence).</source>
        <translation>未通过的行所含误差的类型（溢出、偏置、缩放……；JSON 行包含 code、confidence、params 和 sentence）。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="168"/>
        <source>Both tensors are all zeros: their cosine a·b / (‖a‖·‖b‖ + 1e-8) is 0 here because neither has a length, not because they differ; every error is 0, the two are identical.</source>
        <translation>两个张量全为 0：余弦 a·b / (‖a‖·‖b‖ + 1e-8) 在此为 0，是因为两者的长度都为 0，而不是因为两者不同；所有误差均为 0，两者完全相同。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="31"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="32"/>
        <source>Fused op</source>
        <translation>融合算子名</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="33"/>
        <source>Index</source>
        <translation>索引</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="34"/>
        <source>Origin op</source>
        <translation>原算子名</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="35"/>
        <source>Origin index</source>
        <translation>原索引</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="36"/>
        <source>Cosine</source>
        <translation>余弦相似度</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="37"/>
        <source>Max abs err</source>
        <translation>绝对误差最大值</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="38"/>
        <source>Max rel err</source>
        <translation>相对误差最大值</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="39"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="40"/>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="42"/>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="41"/>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="43"/>
        <source>Occurrence</source>
        <translation>出现次序</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="55"/>
        <source>Fused dtype</source>
        <translation>融合侧数据类型</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="56"/>
        <source>Origin dtype</source>
        <translation>原始侧数据类型</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="57"/>
        <source>Fused shape</source>
        <translation>融合侧形状</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="58"/>
        <source>Origin shape</source>
        <translation>原始侧形状</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="59"/>
        <source>Statistics</source>
        <translation>统计值</translation>
    </message>
</context>
<context>
    <name>PrecisionTableView</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/table_view.py" line="80"/>
        <source>Copy rows</source>
        <translation>复制行</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/column_chooser.py" line="56"/>
        <location filename="../../app/autofuse_studio/ui/precision/table_view.py" line="81"/>
        <source>Columns…</source>
        <translation>列…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/column_chooser.py" line="40"/>
        <source>Columns</source>
        <translation>列</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/column_chooser.py" line="52"/>
        <source>Key columns stay shown and stay left while you scroll sideways.</source>
        <translation>关键列始终显示，横向滚动时固定在左侧。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/column_chooser.py" line="58"/>
        <source>Show, hide and reorder the columns (or drag a column header)</source>
        <translation>显示、隐藏列并调整顺序（也可拖动列标题）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/column_chooser.py" line="61"/>
        <source>Reset columns</source>
        <translation>恢复默认列</translation>
    </message>
</context>
<context>
    <name>PrecisionWorkbench</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/workbench.py" line="145"/>
        <location filename="../../app/autofuse_studio/ui/precision/workbench.py" line="166"/>
        <location filename="../../app/autofuse_studio/ui/precision/workbench.py" line="449"/>
        <source>Select a row to see its tensors here.</source>
        <translation>选择一行以在此查看其张量。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/workbench.py" line="283"/>
        <source>%1 rows; first divergence: %2</source>
        <translation>共 %1 行；首个劣化点：%2</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/workbench.py" line="356"/>
        <source>… and %1 more selected rows (a picture holds at most %2; export the table for all)</source>
        <translation>…… 另有 %1 个选中行未画出（一张图最多 %2 行；需要全部内容请导出表格）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/workbench.py" line="444"/>
        <source>No result: open a case and analyse it to see tensors here.</source>
        <translation>没有结果：打开一个用例并分析后，这里显示张量。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/workbench.py" line="448"/>
        <source>This result has no rows: there are no tensors to show.</source>
        <translation>此结果没有行：没有可显示的张量。</translation>
    </message>
    <message>
        <source>The tensors of this row are on host %1; `autofuse-studio report --host %1 …` draws those of the first divergence.</source>
        <translation type="vanished">此行的张量位于远程主机 %1 上；`autofuse-studio report --host %1 …` 可绘制首个劣化点的张量。</translation>
    </message>
</context>
<context>
    <name>RankStepModel</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/overview.py" line="82"/>
        <source>rank %1</source>
        <translation>rank %1</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/overview.py" line="82"/>
        <source>no rank</source>
        <translation>无 rank</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/overview.py" line="85"/>
        <source>step %1</source>
        <translation>step %1</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/overview.py" line="85"/>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/overview.py" line="100"/>
        <source>rank %1, step %2: %3 rows</source>
        <translation>rank %1，step %2：%3 行</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/overview.py" line="104"/>
        <source>min cosine %1</source>
        <translation>最小余弦 %1</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/overview.py" line="107"/>
        <source>first divergence: %1</source>
        <translation>首个偏差：%1</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/overview.py" line="109"/>
        <source>Click to show only this rank and step.</source>
        <translation>点击只显示此 rank 和 step。</translation>
    </message>
</context>
<context>
    <name>ResultCard</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/panel.py" line="64"/>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/panel.py" line="65"/>
        <source>status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/panel.py" line="65"/>
        <source>workspace</source>
        <translation>工作空间</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/panel.py" line="66"/>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/panel.py" line="73"/>
        <source>%1 (from %2)</source>
        <translation>%1（来自 %2）</translation>
    </message>
</context>
<context>
    <name>RowText</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/row_text.py" line="14"/>
        <source>input</source>
        <translation>输入</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/row_text.py" line="15"/>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/row_text.py" line="20"/>
        <source>rank %1</source>
        <translation>rank %1</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/row_text.py" line="23"/>
        <source>step %1</source>
        <translation>步骤 %1</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/row_text.py" line="26"/>
        <source> (%1)</source>
        <translation>（%1）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/row_text.py" line="27"/>
        <source>, </source>
        <translation>、</translation>
    </message>
</context>
<context>
    <name>RunFilesModel</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_model.py" line="76"/>
        <source>Side</source>
        <translation>侧</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_model.py" line="76"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_model.py" line="76"/>
        <source>Path</source>
        <translation>路径</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_model.py" line="76"/>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_model.py" line="77"/>
        <source>Lines</source>
        <translation>行数</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_model.py" line="86"/>
        <source>%1/ folder, %2 file(s)</source>
        <translation>%1/ 目录，%2 个文件</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_model.py" line="87"/>
        <source>, never parsed</source>
        <translation>，不解析</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_model.py" line="88"/>
        <source>ATT log</source>
        <translation>ATT 日志</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_model.py" line="88"/>
        <source>text, no ATT lines</source>
        <translation>文本，无 ATT 行</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_model.py" line="89"/>
        <source>binary, not read</source>
        <translation>二进制，未读取</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_model.py" line="89"/>
        <source>note</source>
        <translation>说明</translation>
    </message>
</context>
<context>
    <name>RunForm</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/form.py" line="95"/>
        <location filename="../../app/autofuse_studio/ui/runner/form.py" line="121"/>
        <source>Source folder</source>
        <translation>源码目录</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/form.py" line="95"/>
        <source>Scene</source>
        <translation>场景</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/form.py" line="95"/>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/form.py" line="96"/>
        <location filename="../../app/autofuse_studio/ui/runner/form.py" line="100"/>
        <source>Input JSON</source>
        <translation>输入 JSON</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/form.py" line="96"/>
        <source>aiv_num override</source>
        <translation>覆盖 aiv_num</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/form.py" line="97"/>
        <source>Compile config</source>
        <translation>编译配置</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/form.py" line="97"/>
        <source>Target host</source>
        <translation>目标主机</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/form.py" line="100"/>
        <source>Preset A</source>
        <translation>预设 A</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/form.py" line="100"/>
        <source>Preset B</source>
        <translation>预设 B</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/form.py" line="102"/>
        <source>folder with *tiling_func*.cpp or output_code.py (drop it here)</source>
        <translation>含 *tiling_func*.cpp 或 output_code.py 的目录（可拖放到此处）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/form.py" line="103"/>
        <source>compile.toml (default ~/.att_analyze/compile.toml)</source>
        <translation>compile.toml（默认 ~/.att_analyze/compile.toml）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/form.py" line="104"/>
        <source>from parameters</source>
        <translation>取自参数</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/form.py" line="105"/>
        <source>keep the build folder</source>
        <translation>保留构建目录</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/form.py" line="107"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/form.py" line="181"/>
        <source>Choose an existing source folder.</source>
        <translation>请选择一个已存在的源码目录。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/form.py" line="209"/>
        <source>Start by choosing the source folder (or drop it here).</source>
        <translation>请先选择源目录（或将其拖放到此处）。</translation>
    </message>
</context>
<context>
    <name>RunOnChooser</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/run_on.py" line="53"/>
        <source>Run on</source>
        <translation>运行位置</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/run_on.py" line="54"/>
        <source>Command there</source>
        <translation>远程命令</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/run_on.py" line="55"/>
        <source>autofuse-studio on the host: a program name, an absolute path or a ~/ path. Graph and dump paths above are paths on the host.</source>
        <translation>远程主机上的 autofuse-studio：程序名、绝对路径或 ~/ 路径。上方的图和 dump 路径均为远程主机上的路径。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/run_on.py" line="58"/>
        <location filename="../../app/autofuse_studio/ui/precision/run_on.py" line="69"/>
        <source>local (this machine)</source>
        <translation>本机</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/run_on.py" line="97"/>
        <source>This command cannot be sent to the host: %1</source>
        <translation>此命令无法发送到远程主机：%1</translation>
    </message>
</context>
<context>
    <name>RunOperatorsModel</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_model.py" line="139"/>
        <source>changed</source>
        <translation>有变化</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_model.py" line="139"/>
        <source>unchanged</source>
        <translation>无变化</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_model.py" line="140"/>
        <source>only in default</source>
        <translation>仅在 default</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_model.py" line="140"/>
        <source>only in candidate</source>
        <translation>仅在 candidate</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_model.py" line="145"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_model.py" line="145"/>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_model.py" line="145"/>
        <source>Perf Δ</source>
        <translation>性能变化</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_model.py" line="146"/>
        <source>Default perf</source>
        <translation>default 性能</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_model.py" line="146"/>
        <source>Candidate perf</source>
        <translation>candidate 性能</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_model.py" line="147"/>
        <source>Causes</source>
        <translation>原因</translation>
    </message>
</context>
<context>
    <name>RunnerMessages</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/messages.py" line="28"/>
        <source>this computer</source>
        <translation>本机</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/messages.py" line="34"/>
        <source>The run was cancelled.</source>
        <translation>运行已取消。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/messages.py" line="36"/>
        <source>The run was stopped: it took too long.</source>
        <translation>运行已停止：耗时过长。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/messages.py" line="38"/>
        <source>verify-tiling could not be started.</source>
        <translation>无法启动 verify-tiling。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/messages.py" line="40"/>
        <source>verify-tiling crashed (%1).</source>
        <translation>verify-tiling 崩溃（%1）。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/messages.py" line="43"/>
        <source>The run finished.</source>
        <translation>运行完成。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/messages.py" line="45"/>
        <source>The inputs were refused; nothing was built.</source>
        <translation>输入被拒绝；未进行构建。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/messages.py" line="46"/>
        <source>The run failed with exit code %1.</source>
        <translation>运行失败，退出码 %1。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/messages.py" line="67"/>
        <source>verify-tiling on %1: %2</source>
        <translation>在%1上运行 verify-tiling：%2</translation>
    </message>
</context>
<context>
    <name>RunnerPanel</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/panel.py" line="132"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/panel.py" line="133"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/panel.py" line="134"/>
        <source>Re-run</source>
        <translation>重新运行</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/panel.py" line="135"/>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/panel.py" line="136"/>
        <source>Hosts…</source>
        <translation>主机…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/panel.py" line="137"/>
        <source>History</source>
        <translation>历史记录</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/panel.py" line="138"/>
        <source>Console: verify-tiling output</source>
        <translation>控制台：verify-tiling 输出</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/panel.py" line="140"/>
        <source>Choose a source folder with *tiling_func*.cpp or output_code.py and press Run: the build and the tiling run are shown here line by line, stages in blue and errors in red.</source>
        <translation>选择包含 *tiling_func*.cpp 或 output_code.py 的源码目录并点击“运行”：构建和 tiling 运行的输出逐行显示在这里，阶段为蓝色，错误为红色。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/panel.py" line="175"/>
        <source>Run this code?</source>
        <translation>运行此代码？</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/panel.py" line="176"/>
        <source>verify-tiling compiles the C++ code in
%1
and runs it with your privileges (on the chosen host). Do you trust this folder?</source>
        <translation>verify-tiling 将编译以下目录中的 C++ 代码
%1
并以你的权限（在所选主机上）运行。你信任此目录吗？</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/runner/panel.py" line="303"/>
        <source>Export run history</source>
        <translation>导出运行历史</translation>
    </message>
</context>
<context>
    <name>RunsPanel</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_panel.py" line="119"/>
        <source>Open run root…</source>
        <translation>打开运行目录…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_panel.py" line="120"/>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_panel.py" line="121"/>
        <source>report.md, summary.csv, root-cause.jsonl and summary.xlsx, as att analyze --output writes them</source>
        <translation>report.md、summary.csv、root-cause.jsonl 和 summary.xlsx，与 att analyze --output 写出的相同</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_panel.py" line="123"/>
        <source>Archive…</source>
        <translation>归档…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_panel.py" line="124"/>
        <source>evidence-archive/&lt;run&gt;/ (the logs) and report-archive/&lt;run&gt;/ (the report) under a folder you choose; existing archives are never overwritten (&lt;run&gt;-2, -3, … instead)</source>
        <translation>在所选目录下写入 evidence-archive/&lt;run&gt;/（日志）和 report-archive/&lt;run&gt;/（报告）；绝不覆盖已有归档（改用 &lt;run&gt;-2、-3 …）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_panel.py" line="134"/>
        <source>Analysing the run root…</source>
        <translation>正在分析运行目录…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_panel.py" line="136"/>
        <source>Drop a run root (a folder with default/ and pgo/ or base/) here, or open one.</source>
        <translation>将运行目录（含 default/ 与 pgo/ 或 base/ 的目录）拖放到此处，或点击打开。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_panel.py" line="141"/>
        <source>%1: %2 ↔ %3, %4 operator(s), %5 changed</source>
        <translation>%1：%2 ↔ %3，%4 个算子，%5 个有变化</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_panel.py" line="156"/>
        <source>Analysing run root</source>
        <translation>正在分析运行目录</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_panel.py" line="209"/>
        <source>No difference found.</source>
        <translation>未发现差异。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_panel.py" line="217"/>
        <source>Writing the report</source>
        <translation>正在写报告</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_panel.py" line="224"/>
        <source>Archiving the run</source>
        <translation>正在归档</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_panel.py" line="229"/>
        <source>Report written to %1</source>
        <translation>报告已写入 %1</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_panel.py" line="233"/>
        <source>Archived as %1: %2 and %3</source>
        <translation>已归档为 %1：%2 和 %3</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_panel.py" line="238"/>
        <source>Open a run root</source>
        <translation>打开运行目录</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_panel.py" line="243"/>
        <source>Export the report to folder</source>
        <translation>将报告导出到目录</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_panel.py" line="248"/>
        <source>Folder not empty</source>
        <translation>目录非空</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_panel.py" line="249"/>
        <source>%1 is not empty. Replace report.md, summary.csv, root-cause.jsonl and summary.xlsx in it? Other files are left alone.</source>
        <translation>%1 非空。是否替换其中的 report.md、summary.csv、root-cause.jsonl 和 summary.xlsx？其他文件保持不变。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_panel.py" line="257"/>
        <source>Archive root (evidence-archive/ and report-archive/ go in it)</source>
        <translation>归档根目录（evidence-archive/ 与 report-archive/ 将写在其中）</translation>
    </message>
</context>
<context>
    <name>ScatterPlot</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/scatter_plot.py" line="58"/>
        <source>Fused vs origin (y = x dashed)</source>
        <translation>融合 vs 原始（虚线为 y = x）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/scatter_plot.py" line="59"/>
        <source>origin value</source>
        <translation>原始值</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/scatter_plot.py" line="60"/>
        <source>fused value</source>
        <translation>融合值</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/scatter_plot.py" line="67"/>
        <source>No tensor pair to plot.</source>
        <translation>没有可绘制的张量对。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/scatter_plot.py" line="89"/>
        <source>No finite values to plot: every sampled element is NaN or Inf.</source>
        <translation>没有可绘制的有限值：所有采样元素都是 NaN 或 Inf。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/scatter_plot.py" line="109"/>
        <source>%1 points (every element)</source>
        <translation>%1 个点（全部元素）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/scatter_plot.py" line="111"/>
        <source>%1 points: every %2th of %3 elements, plus the worst ones</source>
        <translation>%1 个点：%3 个元素中每 %2 个取一个，另加误差最大的元素</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/scatter_plot.py" line="113"/>
        <source>%1 · beyond rounding (red): %2 · within rounding (blue)</source>
        <translation>%1 · 超出舍入误差（红）：%2 · 舍入误差内（蓝）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/scatter_plot.py" line="116"/>
        <source>NaN/Inf left out: %1</source>
        <translation>未绘制的 NaN/Inf：%1</translation>
    </message>
</context>
<context>
    <name>ScopeTree</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/scope_tree.py" line="98"/>
        <source>Layers (op name scopes)</source>
        <translation>层级（算子名作用域）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/scope_tree.py" line="99"/>
        <source>Scope</source>
        <translation>作用域</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/scope_tree.py" line="99"/>
        <source>Ops</source>
        <translation>算子数</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/scope_tree.py" line="100"/>
        <source>Click a scope to select and show its ops</source>
        <translation>单击作用域以选中并显示其算子</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/graph/scope_tree.py" line="144"/>
        <source>… %1 more</source>
        <translation>… 另有 %1 个</translation>
    </message>
</context>
<context>
    <name>SearchableText</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/text_search.py" line="52"/>
        <source>Search in this case…</source>
        <translation>在此用例中搜索…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/text_search.py" line="53"/>
        <source>Previous</source>
        <translation>上一个</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/text_search.py" line="54"/>
        <source>Next</source>
        <translation>下一个</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/text_search.py" line="82"/>
        <source>{n} match(es)</source>
        <translation>{n} 处匹配</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/dialogs/shortcuts.py" line="56"/>
        <source>In a view</source>
        <translation>视图内</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/dialogs/shortcuts.py" line="73"/>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/dialogs/shortcuts.py" line="76"/>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/dialogs/shortcuts.py" line="76"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/dialogs/shortcuts.py" line="76"/>
        <source>Shortcut</source>
        <translation>快捷键</translation>
    </message>
</context>
<context>
    <name>SidePictures</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_pictures.py" line="59"/>
        <source>No [PERF] lines for %1 in this run.</source>
        <translation>此运行中没有 %1 的 [PERF] 行。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/runs_pictures.py" line="65"/>
        <source>%1: %2/</source>
        <translation>%1：%2/</translation>
    </message>
</context>
<context>
    <name>SignatureLine</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/signature_line.py" line="41"/>
        <source>No signature: no element differs beyond rounding.</source>
        <translation>无误差特征：没有元素的差异超出舍入误差。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/signature_line.py" line="43"/>
        <source>No signature: the pair has more than %1 elements.</source>
        <translation>无误差特征：这对张量超过 %1 个元素。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/signature_line.py" line="46"/>
        <source>No signature: the two files could not be read again.</source>
        <translation>无误差特征：无法再次读取这两个文件。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/signature_line.py" line="48"/>
        <source>No signature: the two tensors no longer match in size.</source>
        <translation>无误差特征：两个张量的大小已不一致。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/signature_line.py" line="50"/>
        <source>No signature: the row has no file pair.</source>
        <translation>无误差特征：该行没有文件对。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/signature_line.py" line="51"/>
        <source>No signature.</source>
        <translation>无误差特征。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/signature_line.py" line="87"/>
        <source>Name its error</source>
        <translation>识别误差特征</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/signature_line.py" line="91"/>
        <source>Work out this pair&apos;s signature (the kind of error its tensors hold) from its two files. A run signs the rows that fail their thresholds; this one is signed here only.</source>
        <translation>根据两个文件计算这对张量的误差特征（其误差的类型）。运行只为未通过阈值的行计算误差特征；此处的结果只显示在本面板中。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/signature_line.py" line="101"/>
        <source>Signature: %1</source>
        <translation>误差特征：%1</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/signature_line.py" line="108"/>
        <source>The run could not work out this failing row&apos;s signature.</source>
        <translation>运行未能计算出这一未通过行的误差特征。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/signature_line.py" line="110"/>
        <source>This row has no signature: a run signs the rows that fail their thresholds.</source>
        <translation>该行没有误差特征：运行只为未通过阈值的行计算误差特征。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/signature_line.py" line="130"/>
        <source>Working out the signature…</source>
        <translation>正在计算误差特征…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/signature_line.py" line="143"/>
        <source>Signature (worked out on demand): %1</source>
        <translation>误差特征（按需计算）：%1</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/signature_line.py" line="169"/>
        <source>The signature could not be worked out.</source>
        <translation>无法计算误差特征。</translation>
    </message>
</context>
<context>
    <name>SignatureText</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/signature_text.py" line="16"/>
        <source>NaN/Inf introduced</source>
        <translation>引入 NaN/Inf</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/signature_text.py" line="17"/>
        <source>Overflow</source>
        <translation>溢出</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/signature_text.py" line="18"/>
        <source>Underflow</source>
        <translation>下溢</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/signature_text.py" line="19"/>
        <source>Layout permutation</source>
        <translation>布局置换</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/signature_text.py" line="20"/>
        <source>Tail block</source>
        <translation>尾块</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/signature_text.py" line="21"/>
        <source>Localised</source>
        <translation>局部</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/signature_text.py" line="22"/>
        <source>Bias</source>
        <translation>偏置</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/signature_text.py" line="23"/>
        <source>Scale</source>
        <translation>缩放</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/signature_text.py" line="24"/>
        <source>Rounding</source>
        <translation>舍入</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/signature_text.py" line="25"/>
        <source>Uncorrelated</source>
        <translation>不相关</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/signature_text.py" line="26"/>
        <source>Unclassified</source>
        <translation>未归类</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/signature_text.py" line="27"/>
        <source>Mixed</source>
        <translation>混合</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/signature_text.py" line="30"/>
        <source>Mixed: %1</source>
        <translation>混合：%1</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/signature_text.py" line="55"/>
        <source>confidence %1</source>
        <translation>置信度 %1</translation>
    </message>
</context>
<context>
    <name>SplitPanel</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/split_panel.py" line="34"/>
        <location filename="../../app/autofuse_studio/ui/att/split_panel.py" line="161"/>
        <source>Splitting logs</source>
        <translation>正在拆分日志</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/split_panel.py" line="40"/>
        <source>Split finished</source>
        <translation>拆分完成</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/split_panel.py" line="55"/>
        <location filename="../../app/autofuse_studio/ui/att/split_panel.py" line="124"/>
        <source>Split logs</source>
        <translation>拆分后的日志</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/split_panel.py" line="121"/>
        <source>Split again</source>
        <translation>重新拆分</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/split_panel.py" line="122"/>
        <source>Export split folder…</source>
        <translation>导出拆分目录…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/split_panel.py" line="130"/>
        <source>Splitting…</source>
        <translation>正在拆分…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/split_panel.py" line="131"/>
        <source>The split did not finish; press Split again.</source>
        <translation>拆分未完成；请点击“重新拆分”。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/split_panel.py" line="132"/>
        <source>{n} case file(s); select one to read it</source>
        <translation>{n} 个用例文件；选择一个即可查看</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/split_panel.py" line="133"/>
        <source>Open logs to split them per operator, group and case.</source>
        <translation>打开日志，按算子、组和用例拆分。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/split_panel.py" line="204"/>
        <source>… truncated at %1 MB; export the split folder for the whole file.</source>
        <translation>… 已在 %1 MB 处截断；导出拆分目录可获得完整文件。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/split_panel.py" line="212"/>
        <source>Exporting split logs</source>
        <translation>正在导出拆分后的日志</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/split_panel.py" line="216"/>
        <source>Export the split logs to</source>
        <translation>将拆分后的日志导出到</translation>
    </message>
</context>
<context>
    <name>StartPage</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/start_page.py" line="156"/>
        <source>Find the fused op that introduces a precision error: open a case, or try the demo.</source>
        <translation>找出引入精度误差的融合算子：打开一个案例，或试试演示案例。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/start_page.py" line="158"/>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/start_page.py" line="159"/>
        <source>Open demo case</source>
        <translation>打开演示案例</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/start_page.py" line="160"/>
        <source>A small generated case with one wrong fused op, analysed at once</source>
        <translation>一个生成的小案例，含一个出错的融合算子，打开后立即分析</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/start_page.py" line="161"/>
        <source>Open case…</source>
        <translation>打开案例…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/start_page.py" line="162"/>
        <source>A run or dump folder (File &gt; Open case file… opens a saved .afcase)</source>
        <translation>运行目录或 dump 目录（文件 &gt; 打开案例文件… 可打开已保存的 .afcase）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/start_page.py" line="163"/>
        <source>Open graph…</source>
        <translation>打开图…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/start_page.py" line="164"/>
        <source>One GE graph to browse, or two (af-open, af-close) to compare</source>
        <translation>浏览一个 GE 图，或比较两个（af-open、af-close）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/start_page.py" line="165"/>
        <source>Open run root…</source>
        <translation>打开运行根目录…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/start_page.py" line="166"/>
        <source>A field run&apos;s default and PGO ATT logs, compared in the ATT tab</source>
        <translation>现场运行的默认与 PGO ATT 日志，在 ATT 标签页中比较</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/start_page.py" line="167"/>
        <source>Recent cases</source>
        <translation>最近的案例</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/start_page.py" line="168"/>
        <source>No recent cases yet.</source>
        <translation>还没有最近的案例。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/start_page.py" line="169"/>
        <source>Drop a dump folder, a graph or ATT logs here</source>
        <translation>将 dump 目录、图或 ATT 日志拖放到这里</translation>
    </message>
</context>
<context>
    <name>StatsComparisonModel</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/stats_view.py" line="102"/>
        <source>Statistic</source>
        <translation>统计量</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/stats_view.py" line="102"/>
        <source>Fused</source>
        <translation>融合侧</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/stats_view.py" line="102"/>
        <source>Origin</source>
        <translation>原始侧</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/stats_view.py" line="102"/>
        <source>Difference</source>
        <translation>差值</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/stats_view.py" line="103"/>
        <source>Relative difference</source>
        <translation>相对差</translation>
    </message>
</context>
<context>
    <name>StatsComparisonView</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/stats_view.py" line="158"/>
        <source>dtype: fused %1, origin %2</source>
        <translation>dtype：融合侧 %1，原始侧 %2</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/stats_view.py" line="169"/>
        <source>This row has no statistics to compare (%1).</source>
        <translation>此行没有可比较的统计值（%1）。</translation>
    </message>
</context>
<context>
    <name>StatsTableModel</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_models.py" line="84"/>
        <source>Elements</source>
        <translation>元素个数</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_models.py" line="85"/>
        <source>Finite</source>
        <translation>有限值个数</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_models.py" line="86"/>
        <source>Min</source>
        <translation>最小值</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_models.py" line="87"/>
        <source>Max</source>
        <translation>最大值</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_models.py" line="88"/>
        <source>Mean</source>
        <translation>均值</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_models.py" line="89"/>
        <source>Std</source>
        <translation>标准差</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_models.py" line="138"/>
        <source>Statistic</source>
        <translation>统计量</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_models.py" line="138"/>
        <source>Fused</source>
        <translation>融合侧</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_models.py" line="138"/>
        <source>Origin</source>
        <translation>原始侧</translation>
    </message>
</context>
<context>
    <name>StatsText</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/stats_text.py" line="24"/>
        <source>Max</source>
        <translation>最大值</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/stats_text.py" line="25"/>
        <source>Min</source>
        <translation>最小值</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/stats_text.py" line="26"/>
        <source>Avg</source>
        <translation>平均值</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/stats_text.py" line="27"/>
        <source>L2 norm</source>
        <translation>L2 范数</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/stats_text.py" line="28"/>
        <source>Elements</source>
        <translation>元素个数</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/stats_text.py" line="29"/>
        <source>NaN count</source>
        <translation>NaN 个数</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/stats_text.py" line="30"/>
        <source>-Inf count</source>
        <translation>-Inf 个数</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/stats_text.py" line="31"/>
        <source>+Inf count</source>
        <translation>+Inf 个数</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/stats_text.py" line="76"/>
        <source>%1 %2 vs %3</source>
        <translation>%1 %2 对 %3</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/stats_text.py" line="99"/>
        <source>all equal</source>
        <translation>全部相同</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/stats_text.py" line="100"/>
        <source>not compared</source>
        <translation>未比较</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/stats_text.py" line="109"/>
        <source>A statistic fails when it differs by more than %1 relative and %2 absolute; NaN/Inf counts may differ by %3.</source>
        <translation>统计值的相对差超过 %1 且绝对差超过 %2 时判为不通过；NaN/Inf 个数最多可相差 %3。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/stats_text.py" line="119"/>
        <source>scalar</source>
        <translation>标量</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/stats_text.py" line="126"/>
        <source>The element counts differ (%1 fused, %2 origin): the statistics cover different data (a device layout&apos;s padding?), so they are not judged.</source>
        <translation>元素个数不同（融合侧 %1，原始侧 %2）：统计值覆盖的数据不同（设备格式的填充？），因此不作判定。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/stats_text.py" line="131"/>
        <source>The shapes differ (%1 fused, %2 origin) but the element counts agree: the statistics are compared.</source>
        <translation>形状不同（融合侧 %1，原始侧 %2），但元素个数相同：统计值照常比较。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/stats_text.py" line="145"/>
        <source>No statistic is present on both sides: not judged.</source>
        <translation>没有两侧都有的统计值：不作判定。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/stats_text.py" line="148"/>
        <source>1 statistic breaks the limits.</source>
        <translation>1 个统计值超出限值。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/stats_text.py" line="150"/>
        <source>%1 statistics break the limits.</source>
        <translation>%1 个统计值超出限值。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/stats_text.py" line="151"/>
        <source>Every statistic is within the limits.</source>
        <translation>所有统计值均在限值之内。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/stats_text.py" line="159"/>
        <source>Only one side has %1: not compared.</source>
        <translation>只有一侧有 %1：未比较。</translation>
    </message>
</context>
<context>
    <name>SummaryPanel</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/summary_panel.py" line="131"/>
        <source>Best result per operator</source>
        <translation>每个算子的最优结果</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/summary_panel.py" line="132"/>
        <source>All schedule results (-a)</source>
        <translation>全部调度结果 (-a)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/summary_panel.py" line="133"/>
        <source>Filter operators…</source>
        <translation>过滤算子…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/summary_panel.py" line="134"/>
        <source>Parse Status in CSV</source>
        <translation>CSV 中包含解析状态</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/summary_panel.py" line="135"/>
        <source>Status:</source>
        <translation>状态：</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/summary_panel.py" line="136"/>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/summary_panel.py" line="136"/>
        <source>Export xlsx…</source>
        <translation>导出 xlsx…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/summary_panel.py" line="138"/>
        <location filename="../../app/autofuse_studio/ui/att/summary_panel.py" line="189"/>
        <source>All</source>
        <translation>全部</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/summary_panel.py" line="138"/>
        <location filename="../../app/autofuse_studio/ui/att/summary_panel.py" line="190"/>
        <source>Problems only</source>
        <translation>仅有问题的</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/summary_panel.py" line="181"/>
        <source>Building the summary</source>
        <translation>正在生成汇总</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/summary_panel.py" line="222"/>
        <source>{shown} of {total} row(s) shown; {problems} with parse problems</source>
        <translation>显示 {shown}/{total} 行；{problems} 行有解析问题</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/summary_panel.py" line="225"/>
        <source>Click to show only the rows with parse problems</source>
        <translation>点击仅显示有解析问题的行</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/summary_panel.py" line="250"/>
        <source>Exporting summary</source>
        <translation>正在导出汇总</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/summary_panel.py" line="256"/>
        <source>Export summary</source>
        <translation>导出汇总</translation>
    </message>
</context>
<context>
    <name>SummaryTableModel</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/summary_model.py" line="118"/>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/summary_model.py" line="120"/>
        <source>Log file</source>
        <translation>日志文件</translation>
    </message>
</context>
<context>
    <name>TaskStrip</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/jobs.py" line="30"/>
        <location filename="../../app/autofuse_studio/ui/att/jobs.py" line="41"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>TensorHeatmaps</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_heatmaps.py" line="189"/>
        <source>Fused (mean)</source>
        <translation>融合侧（均值）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_heatmaps.py" line="189"/>
        <source>Origin (mean)</source>
        <translation>原始侧（均值）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_heatmaps.py" line="189"/>
        <source>Fused − Origin (mean)</source>
        <translation>融合侧 − 原始侧（均值）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_heatmaps.py" line="190"/>
        <source>|Fused − Origin| (max)</source>
        <translation>|融合侧 − 原始侧|（最大值）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_heatmaps.py" line="197"/>
        <source>Rows:</source>
        <translation>行：</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_heatmaps.py" line="198"/>
        <source>Columns:</source>
        <translation>列：</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_heatmaps.py" line="199"/>
        <source>Same colours for fused and origin</source>
        <translation>融合侧与原始侧使用相同色阶</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_heatmaps.py" line="201"/>
        <source>One colour range for both value panels, so one colour is one value on both sides.</source>
        <translation>两个数值面板共用一个色阶范围，同一颜色在两侧代表同一数值。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_heatmaps.py" line="211"/>
        <source>Hover a cell for its worst element.</source>
        <translation>将鼠标悬停在单元格上可查看其最差元素。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_heatmaps.py" line="213"/>
        <source>Outlined: %1.</source>
        <translation>框出：%1。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_heatmaps.py" line="235"/>
        <source>wrapped 1-D (%1 per row)</source>
        <translation>一维折行（每行 %1 个）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_heatmaps.py" line="238"/>
        <source>columns (%1 per cell)</source>
        <translation>列（每格 %1 个）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_heatmaps.py" line="239"/>
        <source>rows (%1 per cell)</source>
        <translation>行（每格 %1 个）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_heatmaps.py" line="318"/>
        <source>cell %1: rows %2, cols %3, %4 elements
worst at %5: fused %6, origin %7, |error| %8
means: fused %9, origin %10</source>
        <translation>单元格 %1：行 %2，列 %3，共 %4 个元素
最差元素 %5：融合侧 %6，原始侧 %7，|误差| %8
均值：融合侧 %9，原始侧 %10</translation>
    </message>
</context>
<context>
    <name>TensorHistograms</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_plots.py" line="168"/>
        <source>Values (shared bins)</source>
        <translation>数值直方图（共用分箱）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_plots.py" line="169"/>
        <source>Error (fused − origin)</source>
        <translation>误差（融合侧 − 原始侧）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_plots.py" line="170"/>
        <source>|Error| (log bins; bin 0 = exact zeros)</source>
        <translation>|误差|（对数分箱；第 0 箱为精确零）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_plots.py" line="172"/>
        <source>count</source>
        <translation>计数</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_plots.py" line="173"/>
        <source>Log counts</source>
        <translation>对数计数</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_plots.py" line="195"/>
        <source>Sorted values: fused (solid), origin (dashed)</source>
        <translation>排序后的值：融合侧（实线），原始侧（虚线）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_plots.py" line="195"/>
        <source>share of values</source>
        <translation>值的占比</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_plots.py" line="206"/>
        <source>The tensors hold no elements.</source>
        <translation>张量没有元素。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_plots.py" line="207"/>
        <source>No finite values to plot: all %1 elements are NaN or Inf on both sides.</source>
        <translation>没有可绘制的有限值：两侧全部 %1 个元素均为 NaN 或 Inf。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_plots.py" line="212"/>
        <source>No finite errors to plot (%1 non-finite).</source>
        <translation>没有可绘制的有限误差（%1 个非有限值）。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_plots.py" line="216"/>
        <source>All %1 finite errors are exactly 0, but %2 errors are NaN or Inf
(NaN/Inf values: fused %3, origin %4).</source>
        <translation>全部 %1 个有限误差均精确为 0，但有 %2 个误差为 NaN 或 Inf
（NaN/Inf 值：融合侧 %3，原始侧 %4）。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_plots.py" line="220"/>
        <source>Finite errors are all exactly 0; the %1 NaN or Inf errors have no place on a log scale.</source>
        <translation>有限误差均精确为 0；%1 个 NaN 或 Inf 误差无法在对数坐标上显示。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_plots.py" line="223"/>
        <source>All %1 finite errors are exactly 0: fused and origin are identical.</source>
        <translation>全部 %1 个有限误差均精确为 0：融合侧与原始侧完全相同。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_plots.py" line="225"/>
        <source>All errors are exactly 0: nothing to show on a log scale.</source>
        <translation>所有误差均精确为 0：对数坐标下没有可显示的内容。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_plots.py" line="176"/>
        <source>fused</source>
        <translation>融合侧</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_plots.py" line="177"/>
        <source>origin</source>
        <translation>原始侧</translation>
    </message>
    <message>
        <source>error</source>
        <translation type="vanished">误差</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_plots.py" line="256"/>
        <source>log10 |error|</source>
        <translation>log10 |误差|</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_plots.py" line="262"/>
        <source>|error|</source>
        <translation>|误差|</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_plots.py" line="264"/>
        <source>n/a</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_plots.py" line="266"/>
        <source>exact zeros: %1 · non-finite: fused %2, origin %3, error %4</source>
        <translation>精确零：%1 · 非有限值：融合侧 %2，原始侧 %3，误差 %4</translation>
    </message>
</context>
<context>
    <name>TensorPanel</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="225"/>
        <source>Both tensors are all zeros: their cosine is 0 by its formula, a·b / (|a|·|b| + ε), and the row is OK because the two are identical.</source>
        <translation>两个张量全为 0：按公式 a·b / (|a|·|b| + ε) 其余弦为 0；两者完全相同，因此该行为 OK。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="228"/>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="413"/>
        <source>No tensor pair selected.</source>
        <translation>未选择张量对。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="229"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="230"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="231"/>
        <source>Save the plots or the whole panel as PNG or SVG</source>
        <translation>将图或整个面板保存为 PNG 或 SVG</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="232"/>
        <source>Shown plots (PNG, SVG)…</source>
        <translation>当前显示的图（PNG、SVG）…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="233"/>
        <source>Whole panel (PNG, SVG)…</source>
        <translation>整个面板（PNG、SVG）…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="234"/>
        <source>Histograms</source>
        <translation>直方图</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="234"/>
        <source>Heatmaps</source>
        <translation>热力图</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="234"/>
        <source>Worst elements</source>
        <translation>最差元素</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="234"/>
        <source>Statistics</source>
        <translation>统计</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="235"/>
        <source>Scatter</source>
        <translation>散点图</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="235"/>
        <source>Trend</source>
        <translation>趋势</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="253"/>
        <source>rank %1</source>
        <translation>rank %1</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="254"/>
        <source>step %1</source>
        <translation>步骤 %1</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="255"/>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="255"/>
        <source>input</source>
        <translation>输入</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="257"/>
        <source>%1 vs %2</source>
        <translation>%1 对比 %2</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="352"/>
        <source>%1:%2 has no file pair to show.</source>
        <translation>%1:%2 没有可显示的文件对。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="359"/>
        <source>Statistics rows have no tensors to plot.</source>
        <translation>统计值行没有可绘制的张量。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="368"/>
        <source>Copying the tensors from %1…</source>
        <translation>正在从 %1 复制张量…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="405"/>
        <source>Select a row to see its tensors here.</source>
        <translation>选择一行以在此查看其张量。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="432"/>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="433"/>
        <source>Reading the tensors…</source>
        <translation>正在读取张量…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="450"/>
        <source>Stopped: select the row again to show its tensors.</source>
        <translation>已停止：再次选择该行以显示其张量。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="472"/>
        <source>Choose the Histograms or Heatmaps tab to export its plots.</source>
        <translation>请先切换到“直方图”或“热力图”标签页再导出图。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="504"/>
        <source>Export plots</source>
        <translation>导出图</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="507"/>
        <source>Export tensor panel</source>
        <translation>导出张量面板</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="530"/>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="536"/>
        <source>Could not write the picture: %1</source>
        <translation>无法写入图片：%1</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="552"/>
        <source>starting</source>
        <translation>正在启动</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="581"/>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="658"/>
        <source>Nothing to show: the tensors could not be read.</source>
        <translation>无可显示内容：无法读取这对张量。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_panel.py" line="605"/>
        <source>Sampling the pair…</source>
        <translation>正在对张量对采样…</translation>
    </message>
</context>
<context>
    <name>ThemeMenu</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/theme.py" line="110"/>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/theme.py" line="111"/>
        <source>&amp;System (follow the desktop)</source>
        <translation>系统(跟随桌面)(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/theme.py" line="111"/>
        <source>&amp;Light</source>
        <translation>浅色(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/theme.py" line="111"/>
        <source>&amp;Dark</source>
        <translation>深色(&amp;D)</translation>
    </message>
</context>
<context>
    <name>ThresholdsEditor</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="162"/>
        <source>Default limits</source>
        <translation>默认阈值</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="163"/>
        <source>Cosine ≥</source>
        <translation>余弦相似度 ≥</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="163"/>
        <source>Max abs err ≤</source>
        <translation>绝对误差最大值 ≤</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="163"/>
        <source>Max rel err ≤</source>
        <translation>相对误差最大值 ≤</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="167"/>
        <source>not checked</source>
        <translation>不检查</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="170"/>
        <source>Tensors</source>
        <translation>张量</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="171"/>
        <source>Statistics</source>
        <translation>统计值</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="172"/>
        <source>Limits of rows compared by their statistics (statistics dumps)</source>
        <translation>按统计值比较的行（统计 dump）的限值</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="173"/>
        <source>Statistics limits (statistics dumps)</source>
        <translation>统计值限值（统计 dump）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="175"/>
        <source>Rows of statistics dumps are judged by their statistics: Max, Min, Avg or L2 norm fails when it differs by more than the relative limit and more than the absolute floor; a NaN or Inf count fails when it differs by more than its limit.</source>
        <translation>统计 dump 的行按统计值判定：最大值、最小值、平均值或 L2 范数的相对差超过相对限值且绝对差超过绝对下限时不通过；NaN 或 Inf 个数相差超过其限值时不通过。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="178"/>
        <source>Relative difference ≤</source>
        <translation>相对差 ≤</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="178"/>
        <source>Absolute floor</source>
        <translation>绝对下限</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="179"/>
        <source>NaN/Inf count difference ≤</source>
        <translation>NaN/Inf 个数差 ≤</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="184"/>
        <source>Per dtype (origin side)</source>
        <translation>按数据类型（原始侧）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="186"/>
        <source>dtype</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="186"/>
        <source>Cosine</source>
        <translation>余弦相似度</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="186"/>
        <source>Max abs</source>
        <translation>绝对误差</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="186"/>
        <source>Max rel</source>
        <translation>相对误差</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="187"/>
        <source>Add dtype</source>
        <translation>添加数据类型</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="188"/>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="189"/>
        <source>Reset to defaults</source>
        <translation>恢复默认</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="190"/>
        <source>Set every limit back to its default (Undo brings yours back)</source>
        <translation>将所有阈值恢复为默认值（“撤销重置”可恢复您的设置）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="191"/>
        <source>Undo reset</source>
        <translation>撤销重置</translation>
    </message>
</context>
<context>
    <name>TopKTableModel</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_models.py" line="72"/>
        <source>Index</source>
        <translation>索引</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_models.py" line="72"/>
        <source>Fused</source>
        <translation>融合侧</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_models.py" line="72"/>
        <source>Origin</source>
        <translation>原始侧</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_models.py" line="72"/>
        <source>Error</source>
        <translation>误差</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/tensor_models.py" line="72"/>
        <source>|Error|</source>
        <translation>|误差|</translation>
    </message>
</context>
<context>
    <name>VerdictLegend</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/legend.py" line="15"/>
        <source>Fails while its inputs are fine: this op broke precision.</source>
        <translation>输入正常而输出不通过：该算子导致了精度劣化。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/legend.py" line="17"/>
        <source>Fails because an upstream op already failed.</source>
        <translation>上游算子已不通过，误差由此传播。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/legend.py" line="19"/>
        <source>Within the thresholds.</source>
        <translation>在阈值范围内。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/legend.py" line="21"/>
        <source>Not compared (no mapping, missing file, skipped...).</source>
        <translation>未比较（无映射、文件缺失、已跳过…）。</translation>
    </message>
</context>
<context>
    <name>WrapLabel</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/widgets/wrap_label.py" line="69"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
</context>
</TS>
